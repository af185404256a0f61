// On-model photos with FASHN (PROVIDER_IMAGE=fashn) on a twin of this file's own, configured as a cloud stage's
// functions are with only the API's address pointing at the contract fake of FASHN's API (test/support/fake-fashn.ts):
// a saved model with a reference portrait is sent as face_reference with the model's seed and charged the
// face-reference tier (FASHN bills 3 credits more per image: 6 at the default 2K against 3), for one photo and for
// every photo of a batch; a model without a portrait is charged the ordinary tier; a refused face-referenced photo is
// refunded exactly what it was charged, by a refund naming its debit.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_REFERENCE_TIER, PRICING_TIER_SEED, SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { startTwin, type Twin, type TwinInfo } from '../../lib/local/twin.js';
import { api } from '../support/api.js';
import { fakeFashnTarget, startFakeFashn, type FakeFashn } from '../support/fake-fashn.js';
import { addClothingItem } from '../support/sources.js';
import { productJpeg, uploadFile } from '../support/uploads.js';
import { createUser, type TestUser } from '../support/users.js';
import { portraitPhoto } from '../fixtures/faces.js';

const FASHN_KEY = 'fa-loopback-key';
/** A model description with this marker is refused by the fake, as FASHN refuses a prohibited image. */
const REFUSE = '[fake-fashn: refuse]';
const FACE_PRICE = PRICING_TIER_SEED.find((tier) => tier.id === FACE_REFERENCE_TIER)!.credits_cost;
const PHOTO_PRICE = PRICING_TIER_SEED.find((tier) => tier.id === 'image-generation')!.credits_cost;

let dataDir: string;
let twin: Twin;
let info: TwinInfo;
let fake: FakeFashn;
let ledgerRepo: typeof import('../../lambdas/data/credits-repo.js');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-fashn-face-'));
  // FASHN's API as its documents describe it (test/support/fake-fashn.ts); a prompt with the marker is refused.
  fake = await startFakeFashn({ apiKey: FASHN_KEY });
  fake.image = await sharp({ create: { width: 576, height: 1024, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();
  fake.outcome = (run) => (String(run.inputs.prompt).includes(REFUSE) ? { status: 'failed', error: 'ContentModerationError' } : { status: 'completed' });
  const fakeUrl = fake.baseUrl;
  // Configured as a cloud stage's on-model functions are, with only FASHN's address (and its key) pointing here.
  Object.assign(process.env, { PROVIDER_IMAGE: 'fashn', FASHN_API_URL: fakeUrl, FASHN_API_KEY: FASHN_KEY });
  twin = await startTwin({ dataDir: join(dataDir, 'twin'), testFetchTargets: [fakeFashnTarget(fake)] });
  info = twin.info;
  ledgerRepo = await import('../../lambdas/data/credits-repo.js');
}, 600_000);

afterAll(async () => {
  await twin?.stop();
  await fake?.close();
  for (const name of ['PROVIDER_IMAGE', 'FASHN_API_URL', 'FASHN_API_KEY']) delete process.env[name];
  rmSync(dataDir, { recursive: true, force: true });
});

/** A photograph of one person: a portrait must show exactly one face. */
const portrait = () => portraitPhoto();

const post = (user: TestUser, path: string, body: unknown) => api(info.apiUrl, 'POST', path, { user, body, headers: { 'idempotency-key': randomUUID() } });
const balanceOf = async (user: TestUser): Promise<number> => (await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits;

async function savedModel(user: TestUser, description: string, withPortrait: boolean): Promise<{ id: string; seed: number }> {
  const imageKey = withPortrait ? await uploadFile(info, user, '/models/upload-url', await portrait(), 'maya.jpg') : undefined;
  const created = await post(user, '/models', { name: 'Maya', description, ...(imageKey ? { imageKey, rightsConfirmed: true } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function settled(user: TestUser, path: string, done: (body: any) => boolean, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(info.apiUrl, 'GET', path, { user });
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`${path} not settled after ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function userWithItem(credits: number) {
  const user = await createUser(info);
  if (credits > 0) await post(user, '/credits/purchase', { credits });
  // Bought (when asked), as the balance shows.
  expect((await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS + credits);
  const item = await addClothingItem(info.apiUrl, user, await productJpeg(), 'Shirt');
  return { user, item };
}

/** The run request FASHN got for a model (by its description, which is the prompt's first words). */
const runFor = (description: string) => fake.runs.filter((run) => String(run.inputs.prompt).startsWith(description));

describe('a FASHN deployment', () => {
  it('lists the face-reference tier among its prices', async () => {
    const { body } = await api(info.apiUrl, 'GET', '/pricing-tiers', {});
    expect(body.items.find((tier: { id: string }) => tier.id === FACE_REFERENCE_TIER)).toMatchObject({ credits_cost: FACE_PRICE, is_active: true });
  });

  it("sends a saved model's portrait as face_reference with its seed, and charges the face-reference tier", async () => {
    const { user, item } = await userWithItem(0);
    const description = `woman ${randomUUID().slice(0, 8)}, curly black hair`;
    const model = await savedModel(user, description, true);
    const before = await balanceOf(user);

    const started = await post(user, '/generate-ai-image', { clothingItemId: item.id, modelId: model.id, imageSize: '1k' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.remainingCredits).toBe(before - FACE_PRICE);
    const done = await settled(user, `/generations/${started.body.generationId}`, (body) => body.status !== 'processing');
    expect(done).toMatchObject({ status: 'complete', credits_used: FACE_PRICE, ai_model: 'fashn:product-to-model' });

    const [run, ...more] = runFor(description);
    expect(more).toEqual([]);
    expect(run!.model_name).toBe('product-to-model');
    expect(run!.inputs).toMatchObject({ seed: model.seed, face_reference_mode: 'match_base' });
    const face = String(run!.inputs.face_reference);
    expect(face).toMatch(/^data:image\/(jpeg|png|webp);base64,/);
    const sent = await sharp(Buffer.from(face.slice(face.indexOf(',') + 1), 'base64')).metadata();
    expect([sent.width, sent.height]).toEqual([240, 320]);
    expect(await balanceOf(user)).toBe(before - FACE_PRICE);
  }, 180_000);

  it('charges the ordinary image tier for a saved model without a portrait, and sends no face_reference', async () => {
    const { user, item } = await userWithItem(0);
    const description = `man ${randomUUID().slice(0, 8)}, short grey hair`;
    const model = await savedModel(user, description, false);
    const before = await balanceOf(user);

    const started = await post(user, '/generate-ai-image', { clothingItemId: item.id, modelId: model.id, imageSize: '1k' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.remainingCredits).toBe(before - PHOTO_PRICE);
    await settled(user, `/generations/${started.body.generationId}`, (body) => body.status === 'complete');
    const [run] = runFor(description);
    expect(run!.inputs).toMatchObject({ seed: model.seed });
    expect(run!.inputs).not.toHaveProperty('face_reference');
  }, 180_000);

  it('refunds a refused face-referenced photo exactly what it was charged, naming its debit', async () => {
    const { user, item } = await userWithItem(0);
    const model = await savedModel(user, `woman ${randomUUID().slice(0, 8)} ${REFUSE}`, true);
    const before = await balanceOf(user);

    const started = await post(user, '/generate-ai-image', { clothingItemId: item.id, modelId: model.id, imageSize: '1k' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.remainingCredits).toBe(before - FACE_PRICE);
    const failed = await settled(user, `/generations/${started.body.generationId}`, (body) => body.status !== 'processing');
    expect(failed).toMatchObject({ status: 'failed', credits_used: FACE_PRICE, credits_refunded: FACE_PRICE });

    await expect.poll(() => balanceOf(user), { timeout: 30_000 }).toBe(before);
    const ledger = await ledgerRepo.listWholeLedgerItems(user.sub);
    const debit = ledger.find((entry) => entry.transaction_type === 'debit' && entry.amount === -FACE_PRICE);
    const refunds = ledger.filter((entry) => entry.transaction_type === 'refund');
    expect(debit).toBeDefined();
    expect(refunds.map((entry) => ({ amount: entry.amount, refund_of: entry.refund_of }))).toEqual([{ amount: FACE_PRICE, refund_of: debit!.id }]);
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0)).toBe(before);
  }, 180_000);

  it('refuses before any charge a face-referenced photo whose portrait is gone, without paying FASHN for a plain one', async () => {
    const { user, item } = await userWithItem(0);
    const description = `woman ${randomUUID().slice(0, 8)}, red hair`;
    const model = await savedModel(user, description, true);
    const { getModel } = await import('../../lambdas/data/models-repo.js');
    const { deleteStoredObject } = await import('../../lambdas/storage/object-deletion.js');
    const stored = await getModel(user.sub, model.id);
    await deleteStoredObject(stored!.portrait!.bucket, stored!.portrait!.key);
    const before = await balanceOf(user);

    // The model says its portrait is missing (PATCH it with a new one), and nothing is charged or made without it.
    const refused = await post(user, '/generate-ai-image', { clothingItemId: item.id, modelId: model.id, imageSize: '1k' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe('PORTRAIT_MISSING');
    expect(await balanceOf(user)).toBe(before);
    expect(runFor(description)).toEqual([]);
  }, 180_000);

  it('charges every photo of a batch with a portraited model at the face-reference tier', async () => {
    const { user, item } = await userWithItem(20);
    const description = `woman ${randomUUID().slice(0, 8)}, braided hair`;
    const model = await savedModel(user, description, true);
    const before = await balanceOf(user);

    const started = await post(user, '/generate-batch', {
      modelId: model.id,
      imageSize: '1k',
      batchItems: [{ clothingItemId: item.id, cameraAngles: ['Front', 'Back'] }],
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.remainingCredits).toBe(before - 2 * FACE_PRICE);
    const batch = await settled(user, `/batches/${started.body.batchId}`, (body) => body.status !== 'processing', 240_000);
    expect(batch.progress).toEqual({ done: 2, failed: 0, total: 2 });
    expect(batch.photos.map((photo: { generation: { credits_used: number } }) => photo.generation.credits_used)).toEqual([FACE_PRICE, FACE_PRICE]);
    const sent = runFor(description);
    expect(sent).toHaveLength(2);
    for (const run of sent) expect(run.inputs).toMatchObject({ seed: model.seed, face_reference: expect.stringMatching(/^data:image\//) });
  }, 300_000);
});
