// Money safety over HTTP on the twin, tried as a user with bad intent would: one Idempotency-Key buys one thing, a
// refund never returns more than its debit took, a refused request has no effect, and per-user limits answer 429.
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MB, RATE_LIMIT_MESSAGE, SIGNUP_CREDITS, USER_LIMITS } from '../../lambdas/contracts/catalog.js';
import { CANCELLED_BY_USER } from '../../lambdas/contracts/video.js';
import type { LedgerItem } from '../../lambdas/data/credits-repo.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { moneyChecks } from '../support/money.js';
import { api, type ApiAnswer } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { balanceOf, post } = moneyChecks(twin.apiUrl);
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const credits = await import('../../lambdas/domain/credits.js');
const limits = await import('../../lambdas/domain/limits.js');

const s3 = new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
const resultsBucket = twin.env.BUCKET_RESULTS!;

let product: Buffer;
let navyProduct: Buffer;
beforeAll(async () => {
  product = await tshirtPhoto(400, 460);
  navyProduct = await sharp(product).modulate({ hue: 200 }).jpeg().toBuffer();
});

async function buy(user: TestUser, creditsToBuy: number): Promise<void> {
  expect((await post(user, '/credits/purchase', { credits: creditsToBuy })).status).toBe(200);
}

async function uploadForGeneration(user: TestUser, bytes: Buffer): Promise<string> {
  const answer = await api(twin.apiUrl, 'POST', '/generation-uploads/upload-url', {
    user,
    body: { fileName: 'source.png', contentType: 'image/png', sizeBytes: bytes.length },
  });
  expect(answer.status).toBe(200);
  expect((await fetch(answer.body.uploadUrl, { method: 'PUT', headers: answer.body.headers, body: bytes })).status).toBe(200);
  return answer.body.imageKey;
}

async function libraryItem(user: TestUser): Promise<string> {
  const upload = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', {
    user,
    body: { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: product.length },
  });
  expect((await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: product })).status).toBe(200);
  const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.body.imageKey, name: 'Red tee' } });
  expect(item.status).toBe(201);
  return item.body.id;
}

async function settled(user: TestUser, id: string): Promise<{ status: string }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await api(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`generation ${id} still processing`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/**
 * The ledger invariants, read from the stored entries: the balance is their sum, every balance_after is the running
 * sum, and the refunds naming a debit never add up to more than it took (its refundable is what is left).
 */
async function expectLedgerInvariants(user: TestUser): Promise<LedgerItem[]> {
  const entries = await ledgerRepo.listWholeLedgerItems(user.sub);
  let running = 0;
  for (const entry of entries) {
    running += entry.amount;
    expect(entry.balance_after).toBe(running);
  }
  expect(await balanceOf(user)).toBe(running);
  for (const debit of entries.filter((entry) => entry.transaction_type === 'debit')) {
    const refunded = entries.filter((entry) => entry.refund_of === debit.id).reduce((sum, entry) => sum + entry.amount, 0);
    expect(refunded).toBeLessThanOrEqual(-debit.amount);
    expect(debit.refundable).toBe(-debit.amount - refunded);
  }
  return entries;
}

const video = (image: Buffer, order: Record<string, unknown> = {}) => ({ imageBase64: image.toString('base64'), prompt: 'Pivot', ...order });

describe('one Idempotency-Key buys one thing', () => {
  it('refuses a video key reused for an edit that would fail and be refunded (credits from nothing)', async () => {
    const user = await createUser(twin);
    const imageKey = await uploadForGeneration(user, product);
    for (let round = 0; round < 3; round++) {
      const key = randomUUID();
      const started = await post(user, '/generate-video', video(product), key);
      expect(started.status).toBe(200);
      expect((await api(twin.apiUrl, 'POST', `/jobs/${started.body.jobId}/cancel`, { user })).status).toBe(200);
      // An edit the engine understands: one it doesn't is refused before the key is even looked at (400 UNSUPPORTED_EDIT).
      const edit = await post(user, '/edit-ai-image', { imageUrl: imageKey, editPrompt: 'mirror' }, key);
      expect(edit.status).toBe(409);
      expect(edit.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      // Nothing was bought and nothing delivered: the balance never rises above the sign-up grant.
      expect(await balanceOf(user)).toBeLessThanOrEqual(SIGNUP_CREDITS);
    }
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const generations = await api(twin.apiUrl, 'GET', '/generations', { user });
    expect(generations.body.items.filter((item: { operation: string }) => item.operation === 'edit')).toEqual([]);
    await expectLedgerInvariants(user);
  });

  it('refuses an image key reused for a video, also at a balance of 0, and records nothing for it', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const first = await post(user, '/generate-ai-image', { imageData: product.toString('base64'), prompt: 'a model', imageSize: '1k' }, key);
    expect(first.status).toBe(200);
    const reused = await post(user, '/generate-video', video(product), key);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Spend the rest, then try again at 0: still refused, never a free video.
    for (let index = 1; index < SIGNUP_CREDITS; index++) {
      expect((await post(user, '/generate-ai-image', { imageData: product.toString('base64'), prompt: 'a model', imageSize: '1k' })).status).toBe(200);
    }
    expect(await balanceOf(user)).toBe(0);
    expect((await post(user, '/generate-video', video(product), key)).status).toBe(409);
    expect((await api(twin.apiUrl, 'GET', '/jobs', { user })).body.items).toEqual([]);
    await expectLedgerInvariants(user);
  });

  it('answers 409 for every pair of spending routes sharing one key, charging once', async () => {
    const user = await createUser(twin);
    await buy(user, 30);
    const imageKey = await uploadForGeneration(user, product);
    const clothingItemId = await libraryItem(user);
    const bodies: [string, unknown][] = [
      ['/generate-batch', { batchItems: [{ clothingItemId, prompt: 'young female model', cameraAngles: ['Product'], backdrop: 'white' }], imageSize: '1k' }],
      ['/generate-ai-image', { imageKey, prompt: 'a model', imageSize: '1k' }],
      ['/edit-ai-image', { imageUrl: imageKey, editPrompt: 'make the background white' }],
      ['/upscale-ai-image', { imageUrl: imageKey, targetResolution: '2k' }],
      ['/generate-video', video(product)],
      ['/generate-packshot', { clothingItemId, marketplace: 'amazon' }],
    ];
    for (const [firstPath, firstBody] of bodies) {
      const key = randomUUID();
      expect((await post(user, firstPath, firstBody, key)).status, firstPath).toBe(200);
      const before = await balanceOf(user);
      for (const [secondPath, secondBody] of bodies) {
        if (secondPath === firstPath) continue;
        const second = await post(user, secondPath, secondBody, key);
        expect(second.status, `${firstPath} then ${secondPath}`).toBe(409);
        expect(second.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
      }
      expect(await balanceOf(user)).toBe(before);
    }
    await expectLedgerInvariants(user);
  }, 400_000);

  it('refuses the same key on the same route with another body (another image, duration and ratio)', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const first = await post(user, '/generate-video', video(product, { duration: 16, aspect_ratio: '9:16' }), key);
    expect(first.status).toBe(200);
    const other = await post(user, '/generate-video', video(navyProduct, { duration: 5, aspect_ratio: '1:1' }), key);
    expect(other.status).toBe(409);
    const jobs = (await api(twin.apiUrl, 'GET', '/jobs', { user })).body.items;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: first.body.jobId, duration: 16, aspect_ratio: '9:16' });
  });

  it('answers a true replay with the original result after the balance reached 0', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const body = { imageData: product.toString('base64'), prompt: 'a model', imageSize: '1k' };
    const first = await post(user, '/generate-ai-image', body, key);
    expect(first.status).toBe(200);
    for (let index = 1; index < SIGNUP_CREDITS; index++) expect((await post(user, '/generate-ai-image', body)).status).toBe(200);
    expect(await balanceOf(user)).toBe(0);
    const replay = await post(user, '/generate-ai-image', body, key);
    expect(replay.status).toBe(200);
    expect(replay.body.generationId).toBe(first.body.generationId);
    expect(replay.body.remainingCredits).toBe(first.body.remainingCredits);
    expect(await balanceOf(user)).toBe(0);

    const videoKey = randomUUID();
    const poorVideo = await post(user, '/generate-video', video(product), videoKey);
    expect(poorVideo.status).toBe(402);
  });
});

describe('a refund returns a debit, never more', () => {
  it('caps 20 concurrent refunds of one debit at its amount', async () => {
    const user = await createUser(twin);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const key = `cap-${randomUUID()}`;
    await credits.debit(user.sub, { idempotencyKey: key, amount: 3, description: 'Test debit', ref: 'record-cap' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        credits.refund(user.sub, { debitId: credits.debitIdOf(key), ref: `part-${index}`, amount: 1, description: 'Test refund' }),
      ),
    );
    expect(results.filter((result) => result && !result.replayed)).toHaveLength(3);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const entries = await expectLedgerInvariants(user);
    expect(entries.filter((entry) => entry.transaction_type === 'refund')).toHaveLength(3);
  });

  it('refunds a cancelled video once, naming its debit', async () => {
    const user = await createUser(twin);
    const started = await post(user, '/generate-video', video(product, { output_count: 3 }));
    expect(started.status).toBe(200);
    const jobs = (await api(twin.apiUrl, 'GET', '/jobs', { user })).body.items;
    // The local engine costs nothing to run, so a cancel gives everything back; the screen is told how much.
    expect(jobs[0].refundable_credits).toBe(3);
    const cancelled = await api(twin.apiUrl, 'POST', `/jobs/${started.body.jobId}/cancel`, { user });
    expect(cancelled.body).toMatchObject({ status: 'failed', error_message: CANCELLED_BY_USER, credits_refunded: 3, refundable_credits: 0 });
    const entries = await expectLedgerInvariants(user);
    const refunds = entries.filter((entry) => entry.transaction_type === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.refund_of).toMatch(/^debit#/);
  });
});

describe('a refused request has no effect', () => {
  it('stores the paying request’s own image when two requests race on one key with different images', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const bodies = [product, navyProduct].map((image) => ({ imageData: image.toString('base64'), prompt: 'a model', imageSize: '1k' }));
    const answers = await Promise.all(bodies.map((body) => post(user, '/generate-ai-image', body, key)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.findIndex((answer) => answer.status === 200);
    const generation = await generationsRepo.getGeneration(user.sub, answers[winner]!.body.generationId);
    const stored = await s3.send(new GetObjectCommand({ Bucket: resultsBucket, Key: generation!.source!.key }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals([product, navyProduct][winner]!)).toBe(true);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 1);
  });

  it('keeps a 6–10 MB upload that the video route refuses, so the image routes can still use it', async () => {
    const user = await createUser(twin);
    // A real PNG of about 6.25 MB: noise doesn't compress.
    const side = 1450;
    const noise = Buffer.alloc(side * side * 3);
    for (let index = 0; index < noise.length; index++) noise[index] = (index * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(6 * MB);
    expect(big.length).toBeLessThan(10 * MB);
    const imageKey = await uploadForGeneration(user, big);
    const refused = await post(user, '/generate-video', { imageKey, prompt: 'Pivot' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('FILE_TOO_LARGE');
    await s3.send(new HeadObjectCommand({ Bucket: resultsBucket, Key: imageKey }));
    const accepted = await post(user, '/generate-ai-image', { imageKey, prompt: 'a model', imageSize: '1k' });
    expect(accepted.status).toBe(200);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 1);
    await settled(user, accepted.body.generationId);
  });
});

describe('per-user limits', () => {
  it('answers 429 with Retry-After and the screen’s message past the running videos, and no 5xx', async () => {
    const user = await createUser(twin);
    await buy(user, 1);
    const limit = USER_LIMITS.running.video;
    const started: ApiAnswer[] = [];
    for (let index = 0; index < limit; index++) started.push(await post(user, '/generate-video', video(product)));
    expect(started.map((answer) => answer.status)).toEqual(Array(limit).fill(200));
    const refused = await fetch(`${twin.apiUrl}/generate-video`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}`, 'idempotency-key': randomUUID() },
      body: JSON.stringify(video(product)),
    });
    // If a video already finished, the sixth is simply accepted; on a busy machine none has.
    if (refused.status === 429) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ code: 'TOO_MANY_RUNNING', error: `You have ${limit} videos in progress. Start another when one finishes.` });
      expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 1 - limit);
    } else {
      expect(refused.status).toBe(200);
    }
    for (const answer of started) await api(twin.apiUrl, 'POST', `/jobs/${answer.body.jobId}/cancel`, { user });
    await expectLedgerInvariants(user);
  });

  it('answers 429 with Retry-After past the spending rate, counting every request once, and no 5xx', async () => {
    const { limit, windowSeconds } = USER_LIMITS.rates.spending;
    const windowOf = (time: number) => Math.floor(time / (windowSeconds * 1000));
    // The window is 10 s: on a loaded machine, filling it and the request over HTTP can straddle two windows, and the
    // request is then rightly counted in a fresh one. Such an attempt proves nothing, and is made again (a new user).
    for (let attempt = 1; ; attempt++) {
      const user = await createUser(twin);
      expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
      // Start early in a window, so the window is unlikely to roll over between filling it and the request over HTTP.
      const intoWindow = Date.now() % (windowSeconds * 1000);
      if (intoWindow > windowSeconds * 200) await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000 - intoWindow + 50));
      const window = windowOf(Date.now());
      // Fill the caller's window with more than its limit of concurrent requests: exactly `limit` are counted.
      const counted = await Promise.allSettled(Array.from({ length: limit + 20 }, () => limits.takeRequest(user.sub, 'spending')));
      const refused = await fetch(`${twin.apiUrl}/generate-ai-image`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}`, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ imageData: product.toString('base64'), prompt: 'a model', imageSize: '1k' }),
      });
      if (windowOf(Date.now()) !== window && attempt < 3) continue;
      expect(counted.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(limit);
      for (const outcome of counted.filter((outcome) => outcome.status === 'rejected')) {
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      }
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(windowSeconds);
      expect(await refused.json()).toEqual({ code: 'RATE_LIMITED', error: RATE_LIMIT_MESSAGE });
      expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
      return;
    }
  }, 180_000);
});
