// GET /credit-transactions/summary: Usage's bought, spent and refunded figures over the whole ledger (not the 10
// newest entries the list answers), and GET /generation-durations: the median time behind "usually ready in about …".
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
// The domain core reads its table names and endpoints from the environment, as the deployed functions do.
Object.assign(process.env, twin.env);
const credits = await import('../../lambdas/domain/credits.js');

let product: Buffer;
beforeAll(async () => {
  product = await tshirtPhoto(600, 700);
});

const post = (user: TestUser, path: string, body: unknown, key: string = randomUUID()) =>
  api(twin.apiUrl, 'POST', path, { user, body, headers: { 'idempotency-key': key } });
const summaryOf = async (user: TestUser) => {
  const answer = await api(twin.apiUrl, 'GET', '/credit-transactions/summary', { user });
  expect(answer.status).toBe(200);
  return answer.body;
};

async function settled(user: TestUser, id: string, timeoutMs = 90_000): Promise<Generation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`Generation ${id} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function generate(user: TestUser, prompt: string): Promise<Generation> {
  const dataUrl = `data:image/jpeg;base64,${product.toString('base64')}`;
  const answer = await post(user, '/generate-ai-image', { imageData: dataUrl, productType: 'clothing', prompt, imageSize: '1k' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return settled(user, answer.body.generationId);
}

describe('GET /credit-transactions/summary', () => {
  it('needs a signed-in caller', async () => {
    expect((await api(twin.apiUrl, 'GET', '/credit-transactions/summary')).status).toBe(401);
  });

  it('sums every entry of the ledger, far past the 10 the list answers', async () => {
    const user = await createUser(twin);
    // The first authenticated call creates the profile with the sign-up grant.
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    expect(await summaryOf(user)).toEqual({
      bought: 0,
      granted: SIGNUP_CREDITS,
      charged: 0,
      refunded: 0,
      spent: 0,
      purchase_refunded: 0,
      purchases: 0,
      entries: 1,
    });

    // 12 purchases of 10 (7 each way): more entries than the list shows, and the oldest ones count too.
    for (let index = 0; index < 12; index += 1) expect((await post(user, '/credits/purchase', { credits: 10 + (index % 2) })).status).toBe(200);
    // Three debits, two of them refunded in full, one in part.
    const debits = [];
    for (const amount of [3, 2, 4]) {
      const result = await credits.debit(user.sub, { idempotencyKey: randomUUID(), amount, description: 'Test charge', ref: randomUUID() });
      debits.push({ id: result.entry.id, amount });
    }
    await credits.refund(user.sub, { debitId: debits[0]!.id, ref: randomUUID(), amount: 3, description: 'Refund: test failed' });
    await credits.refund(user.sub, { debitId: debits[1]!.id, ref: randomUUID(), amount: 2, description: 'Refund: test failed' });
    await credits.refund(user.sub, { debitId: debits[2]!.id, ref: randomUUID(), amount: 1, description: 'Refund: test part' });

    const list = await api(twin.apiUrl, 'GET', '/credit-transactions', { user });
    expect(list.body.items).toHaveLength(10);
    expect(await summaryOf(user)).toEqual({
      bought: 6 * 10 + 6 * 11,
      granted: SIGNUP_CREDITS,
      charged: 9,
      refunded: 6,
      spent: 3,
      purchase_refunded: 0,
      purchases: 12,
      entries: 1 + 12 + 3 + 3,
    });
    const profile = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(profile.body.current_credits).toBe(SIGNUP_CREDITS + 126 - 3);
  });

  it('counts a failed generation as charged and refunded (net 0), and its row says refunded', async () => {
    const user = await createUser(twin);
    const failed = await generate(user, 'young female model [local-engine: fail]');
    expect(failed).toMatchObject({ status: 'failed', credits_used: 1, credits_refunded: 1 });
    await expect.poll(async () => (await summaryOf(user)).refunded, { timeout: 10_000 }).toBe(1);
    expect(await summaryOf(user)).toMatchObject({ charged: 1, refunded: 1, spent: 0, bought: 0 });
  });
});

describe('GET /generation-durations', () => {
  it('has no figure before any work, then the median of the caller’s complete images', async () => {
    const user = await createUser(twin);
    const before = await api(twin.apiUrl, 'GET', '/generation-durations', { user });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ image: null, video: null, samples: { image: 0, video: 0 } });

    const made = [await generate(user, 'young female model'), await generate(user, 'young female model, smiling')];
    // A failed one is not a duration of work delivered.
    await generate(user, 'young female model [local-engine: fail]');
    const seconds = made.map((generation) => (Date.parse(generation.completed_at!) - Date.parse(generation.created_at)) / 1000);
    const after = await api(twin.apiUrl, 'GET', '/generation-durations', { user });
    expect(after.body.samples).toEqual({ image: 2, video: 0 });
    expect(after.body.video).toBeNull();
    expect(after.body.image).toBeCloseTo((seconds[0]! + seconds[1]!) / 2, 3);
  });
});
