// Packshots over HTTP against the local twin (issue #42): POST /generate-packshot charges the packshot tier, the
// generation workflow cuts the product out of a busy photograph and places it on the preset's ground, and the result,
// its compliance report and its provenance come back in the API's answer; a packshot that cannot be made is refunded.
// The preview engine's on-model picture of the same product is reported as failing Amazon, with the reasons.
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { PRICING_TIER_SEED, SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { readDigitalSourceType } from '../../lambdas/domain/images/provenance.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { photographicFixture, readPhotographicFixture, sellerSizedPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { api } from '../support/api.js';
import { moneyChecks } from '../support/money.js';
import { offWhiteBorderPixels } from '../support/pictures.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { balanceOf, expectLedgerMatchesBalance, post } = moneyChecks(twin.apiUrl);
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const s3 = new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
const PACKSHOT_COST = PRICING_TIER_SEED.find((tier) => tier.id === 'packshot')!.credits_cost;

/** A seller's photo of a T-shirt on grass (900 px wide: the cut-out product is not enlarged past the report's ×3). */
async function busyProduct(): Promise<Buffer> {
  return (await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow', 900)).photo;
}

/** A library item made the way the web app makes one: presigned upload, then registration. */
async function addClothingItem(user: TestUser, photo: Buffer): Promise<{ id: string; image_url: string }> {
  const { body: upload } = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', {
    user,
    body: { fileName: 'tee.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
  });
  expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: photo })).status).toBe(200);
  const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.imageKey, name: 'Red tee' } });
  expect(item.status).toBe(201);
  return item.body;
}

async function settled(user: TestUser, id: string, timeoutMs = 120_000): Promise<Generation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    expect(status, JSON.stringify(body)).toBe(200);
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`Generation ${id} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stored(user: TestUser, id: string): Promise<Buffer> {
  const record = await generationsRepo.getGeneration(user.sub, id);
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: twin.env.BUCKET_RESULTS!, Key: record!.result_key! }));
  return Buffer.from(await Body!.transformToByteArray());
}

const amazonOf = (generation: Generation) => generation.compliance!.marketplaces.find((entry) => entry.marketplace === 'amazon')!;

describe('POST /generate-packshot', () => {
  it('makes an Amazon main image from a product on a busy photograph: white border, fill ≥ 85 %, ≥ 1000 px, JPEG, provenance, report pass', async () => {
    const user = await createUser(twin);
    const item = await addClothingItem(user, await busyProduct());
    const answer = await post(user, '/generate-packshot', { clothingItemId: item.id, marketplace: 'amazon', shadow: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ status: 'processing', remainingCredits: SIGNUP_CREDITS - PACKSHOT_COST });

    const generation = await settled(user, answer.body.generationId);
    expect(generation).toMatchObject({ operation: 'packshot', status: 'complete', ai_model: 'packshot-engine:u2-net-p', result_content_type: 'image/jpeg', width: 2000, height: 2000 });
    // The signed URL serves the stored file, byte for byte (so a download keeps the XMP).
    const bytes = Buffer.from(await (await fetch(generation.result_url!)).arrayBuffer());
    expect(bytes.equals(await stored(user, generation.id))).toBe(true);

    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBeGreaterThanOrEqual(1000);
    expect(await offWhiteBorderPixels(bytes)).toBe(0);
    expect(await readDigitalSourceType(bytes)).toBe('compositeSynthetic');

    const amazon = amazonOf(generation);
    expect(amazon.rules.find((rule) => rule.id === 'fill')!.measured as number).toBeGreaterThanOrEqual(0.85);
    expect(amazon.pass, JSON.stringify(amazon.rules)).toBe(true);
    expect(generation.compliance!.digitalSourceType).toBe('compositeSynthetic');
    // History answers the same report.
    const history = (await api(twin.apiUrl, 'GET', '/generations', { user })).body.items as Generation[];
    expect(history.find((row) => row.id === generation.id)!.compliance).toEqual(generation.compliance);
    await expectLedgerMatchesBalance(user);
  }, 180_000);

  it('the same product as a preview on-model picture reports Amazon fail, with the reasons', async () => {
    const user = await createUser(twin);
    const item = await addClothingItem(user, (await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'))).photo);
    const answer = await post(user, '/generate-ai-image', { clothingItemId: item.id, prompt: 'young female model', imageSize: '1k' });
    expect(answer.status).toBe(200);
    const generation = await settled(user, answer.body.generationId);
    expect(generation.status).toBe('complete');
    const amazon = amazonOf(generation);
    expect(amazon.pass).toBe(false);
    const failed = amazon.rules.filter((rule) => !rule.pass).map((rule) => rule.id);
    expect(failed).toEqual(expect.arrayContaining(['white-background', 'no-watermark']));
    expect(generation.compliance!.digitalSourceType).toBe('compositeSynthetic');
  }, 180_000);

  it('refunds a packshot that cannot be made (a picture with no product), and refuses a custom size without its width', async () => {
    const user = await createUser(twin);
    const blank = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
    const item = await addClothingItem(user, blank);
    const answer = await post(user, '/generate-packshot', { clothingItemId: item.id, marketplace: 'shopify' });
    expect(answer.status).toBe(200);
    const generation = await settled(user, answer.body.generationId);
    expect(generation).toMatchObject({ status: 'failed', credits_refunded: PACKSHOT_COST });
    // The Fail task ends the row, then refunds it: the balance can lag the failed row by a moment.
    await expect.poll(() => balanceOf(user), { timeout: 15_000 }).toBe(SIGNUP_CREDITS);

    const custom = await post(user, '/generate-packshot', { clothingItemId: item.id, marketplace: 'custom', height: 900 }, randomUUID());
    expect(custom.status).toBe(400);
    await expectLedgerMatchesBalance(user);
  }, 180_000);
});
