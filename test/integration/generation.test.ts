// Image generation, edit and upscale over HTTP against the local twin: the routes charge, record and start the
// generation workflow (the local Step Functions API running lib/workflows/generation.asl.json with the same task
// handlers), the local studio engine makes the pictures, and the results are read back from s3rver.
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { IMAGE_SIZES, SIGNUP_CREDITS, UPSCALE_RESOLUTIONS } from '../../lambdas/contracts/catalog.js';
import { INLINE_IMAGE_MAX_BYTES } from '../../lambdas/contracts/inline-image.js';
import { GENERATION_MESSAGES, type Generation } from '../../lambdas/contracts/generations.js';
import { upscaleSizeFor } from '../../lambdas/contracts/image-ratios.js';
import { CONTENT_POLICY_MESSAGE } from '../../lambdas/providers/ports.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { moneyChecks } from '../support/money.js';
import { api, type ApiAnswer } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { balanceOf, expectLedgerMatchesBalance, post } = moneyChecks(twin.apiUrl);
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const credits = await import('../../lambdas/domain/credits.js');
const { failureMessage } = await import('../../lambdas/domain/generation/failure.js');

const resultsBucket = twin.env.BUCKET_RESULTS!;
const s3 = new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });

let product: Buffer;
beforeAll(async () => {
  product = await tshirtPhoto(600, 700);
});

// ——— helpers ———

/** A library item made the way the web app makes one: presigned upload, then registration. */
async function addClothingItem(user: TestUser): Promise<{ id: string; image_url: string }> {
  const { body: upload } = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', {
    user,
    body: { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: product.length },
  });
  expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: product })).status).toBe(200);
  const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.imageKey, name: 'Red tee' } });
  expect(item.status).toBe(201);
  return item.body;
}

/** A file uploaded for generations (the edit and upscale upload path); answers its key. */
async function uploadForGeneration(user: TestUser, bytes: Buffer, contentType = 'image/png', fileName = 'source.png'): Promise<string> {
  const answer = await api(twin.apiUrl, 'POST', '/generation-uploads/upload-url', { user, body: { fileName, contentType, sizeBytes: bytes.length } });
  expect(answer.status).toBe(200);
  expect((await fetch(answer.body.uploadUrl, { method: 'PUT', headers: answer.body.headers, body: bytes })).status).toBe(200);
  return answer.body.imageKey;
}

/** Follows a generation the way the web app does without the socket: GET /generations/{id} until it leaves processing. */
async function settled(user: TestUser, id: string, timeoutMs = 90_000): Promise<Generation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    expect(status).toBe(200);
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`Generation ${id} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function readResult(key: string): Promise<Buffer> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: resultsBucket, Key: key }));
  return Buffer.from(await Body!.transformToByteArray());
}

/** The stored result of a complete generation: a PNG in the results bucket, in the owner's folder. */
async function storedResult(user: TestUser, generationId: string) {
  const record = await generationsRepo.getGeneration(user.sub, generationId);
  expect(record?.result_key).toBe(`${user.sub}/generations/${generationId}.png`);
  const bytes = await readResult(record!.result_key!);
  const metadata = await sharp(bytes).metadata();
  expect(metadata.format).toBe('png');
  const thumbnail = await sharp(await readResult(record!.thumbnail_key!)).metadata();
  expect(thumbnail.format).toBe('webp');
  return { record: record!, bytes, width: metadata.width, height: metadata.height };
}

const dataUrl = (bytes: Buffer, type = 'image/jpeg') => `data:${type};base64,${bytes.toString('base64')}`;

async function generated(user: TestUser, body: Record<string, unknown>): Promise<Generation> {
  const answer = await post(user, '/generate-ai-image', { prompt: 'young female model', ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return settled(user, answer.body.generationId);
}

// ——— tests ———

describe('POST /generate-ai-image', () => {
  it('makes an on-model picture of the default 2K size from a library item, charges 1 credit and counts the item', async () => {
    const user = await createUser(twin);
    const item = await addClothingItem(user);
    const answer = await post(user, '/generate-ai-image', { clothingItemId: item.id, productType: 'clothing', prompt: 'young female model' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'processing', remainingCredits: SIGNUP_CREDITS - 1 });
    expect(answer.body.imageUrl).toBeUndefined();

    const generation = await settled(user, answer.body.generationId);
    expect(generation).toMatchObject({
      id: answer.body.generationId,
      generation_type: 'image',
      operation: 'on-model',
      ai_model: 'preview-engine',
      status: 'complete',
      credits_used: 1,
      error_message: null,
      width: IMAGE_SIZES['2k'].width,
      height: IMAGE_SIZES['2k'].height,
    });
    expect(generation.result_url).toMatch(/^http/);
    expect(generation.thumbnail_url).toMatch(/^http/);
    const stored = await storedResult(user, generation.id);
    expect([stored.width, stored.height]).toEqual([1440, 2560]);
    // The signed URL serves the same picture.
    const fetched = Buffer.from(await (await fetch(generation.result_url!)).arrayBuffer());
    expect(fetched.equals(stored.bytes)).toBe(true);

    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 1);
    const items = (await api(twin.apiUrl, 'GET', '/clothing-items', { user })).body.items;
    expect(items.find((entry: { id: string }) => entry.id === item.id).generations_count).toBe(1);
    await expectLedgerMatchesBalance(user);
  });

  it('accepts an inline image (data URL) and makes exactly 1K', async () => {
    const user = await createUser(twin);
    const generation = await generated(user, { imageData: dataUrl(product), imageSize: '1k', cameraZoom: 'close-up', productType: 'jewelry' });
    expect(generation.status).toBe('complete');
    const stored = await storedResult(user, generation.id);
    expect([stored.width, stored.height]).toEqual([720, 1280]);
    expect(stored.record.source).toMatchObject({ kind: 'upload', bucket: 'results' });
    expect(stored.record.params).toMatchObject({ imageSize: '1k', cameraZoom: 'close-up', productType: 'jewelry', promptEnhance: false });
  });

  it('accepts a file uploaded for generations and makes exactly 4K', async () => {
    const user = await createUser(twin);
    const imageKey = await uploadForGeneration(user, product, 'image/jpeg', 'tee.jpg');
    const generation = await generated(user, { imageKey, imageSize: '4k' });
    expect(generation.status).toBe('complete');
    const stored = await storedResult(user, generation.id);
    expect([stored.width, stored.height]).toEqual([2880, 5120]);
  });

  it('answers the specification messages for a missing description and a missing image, charging nothing', async () => {
    const user = await createUser(twin);
    const noPrompt = await post(user, '/generate-ai-image', { imageData: dataUrl(product), prompt: '   ' });
    expect(noPrompt).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', error: GENERATION_MESSAGES.enterModelDescription } });
    const noImage = await post(user, '/generate-ai-image', { prompt: 'model' });
    expect(noImage.status).toBe(400);
    expect(noImage.body.error).toContain(GENERATION_MESSAGES.selectClothingItem);
    const notAnImage = await post(user, '/generate-ai-image', { prompt: 'model', imageData: Buffer.from('GIF89a not really').toString('base64') });
    expect(notAnImage).toMatchObject({ status: 400, body: { code: 'INVALID_FILE_TYPE', error: 'Please upload a JPEG, PNG, or WebP image' } });
    const tooLarge = await post(user, '/generate-ai-image', { prompt: 'model', imageData: Buffer.alloc(INLINE_IMAGE_MAX_BYTES + 1).toString('base64') });
    expect(tooLarge).toMatchObject({ status: 413, body: { code: 'INLINE_IMAGE_TOO_LARGE' } });
    const someoneElses = await post(user, '/generate-ai-image', { prompt: 'model', clothingItemId: '1700000000000-0123456789abcdef' });
    expect(someoneElses.status).toBe(404);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user })).body.items).toEqual([]);
  });

  it('requires an Idempotency-Key', async () => {
    const user = await createUser(twin);
    const answer = await api(twin.apiUrl, 'POST', '/generate-ai-image', { user, body: { prompt: 'model', imageData: dataUrl(product) } });
    expect(answer).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_REQUIRED' } });
  });
});

describe('POST /edit-ai-image and /upscale-ai-image', () => {
  let user: TestUser;
  let source: Generation;
  beforeAll(async () => {
    user = await createUser(twin);
    source = await generated(user, { imageData: dataUrl(product), imageSize: '1k' });
    expect(source.status).toBe('complete');
  });

  it('edits one of the caller\'s results by generation id, keeping its size', async () => {
    const before = await balanceOf(user);
    const answer = await post(user, '/edit-ai-image', { imageUrl: source.id, editPrompt: 'background white and mirror' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'processing', remainingCredits: before - 1 });
    const edit = await settled(user, answer.body.generationId);
    expect(edit).toMatchObject({ status: 'complete', operation: 'edit', generation_type: 'image', credits_used: 1, ai_model: 'preview-engine' });
    const stored = await storedResult(user, edit.id);
    expect([stored.width, stored.height]).toEqual([720, 1280]);
    expect(stored.record.source).toMatchObject({ kind: 'generation', ref: source.id });
    // The edit really changed the picture.
    expect(stored.bytes.equals(await readResult(`${user.sub}/generations/${source.id}.png`))).toBe(false);
  });

  it('upscales a result key to exactly 4K for 2 credits', async () => {
    const before = await balanceOf(user);
    const answer = await post(user, '/upscale-ai-image', { imageUrl: `${user.sub}/generations/${source.id}.png`, targetResolution: '4k' });
    expect(answer.status).toBe(200);
    expect(answer.body.remainingCredits).toBe(before - 2);
    const upscale = await settled(user, answer.body.generationId);
    expect(upscale).toMatchObject({ status: 'complete', operation: 'upscale', credits_used: 2, width: 2880, height: 5120 });
    const stored = await storedResult(user, upscale.id);
    expect([stored.width, stored.height]).toEqual([UPSCALE_RESOLUTIONS['4k'].width, UPSCALE_RESOLUTIONS['4k'].height]);
    await expectLedgerMatchesBalance(user);
  });

  it('upscales an uploaded file to 2K by default, and a library item\'s key too', async () => {
    const buyer = await createUser(twin);
    const key = await uploadForGeneration(buyer, await sharp(product).png().toBuffer());
    const fromUpload = await post(buyer, '/upscale-ai-image', { imageUrl: key });
    expect(fromUpload.status).toBe(200);
    const upscaled = await settled(buyer, fromUpload.body.generationId);
    // 2K in the source's own ratio (600×700): the pixels of 1440×2560, not stretched to 9:16.
    const expected = upscaleSizeFor('2k', { width: 600, height: 700 });
    expect([upscaled.width, upscaled.height, upscaled.credits_used]).toEqual([expected.width, expected.height, 1]);
    expect(Math.abs(upscaled.width! / upscaled.height! - 600 / 700)).toBeLessThan(0.01);
    expect((await storedResult(buyer, upscaled.id)).width).toBe(expected.width);

    const item = await addClothingItem(buyer);
    const fromItem = await post(buyer, '/edit-ai-image', { imageUrl: item.image_url, editPrompt: 'grayscale' });
    expect(fromItem.status).toBe(200);
    expect((await settled(buyer, fromItem.body.generationId)).status).toBe('complete');
    const items = (await api(twin.apiUrl, 'GET', '/clothing-items', { user: buyer })).body.items;
    expect(items[0].generations_count).toBe(1);
  });

  it('refuses an upscale that would not make the picture larger, before any charge (a 2K square to 2K, a 2K 9:16 to 2K)', async () => {
    const buyer = await createUser(twin);
    const square = await uploadForGeneration(buyer, await sharp({ create: { width: 2048, height: 2048, channels: 3, background: '#c33' } }).png().toBuffer());
    // Turned upright by its EXIF orientation, this 2560×1440 JPEG is a 1440×2560 picture: already 2K.
    const turned = await sharp({ create: { width: 2560, height: 1440, channels: 3, background: '#228' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const portrait = await uploadForGeneration(buyer, turned, 'image/jpeg', 'portrait.jpg');
    const before = await balanceOf(buyer);
    for (const [imageUrl, size] of [[square, '2048×2048'], [portrait, '1440×2560']] as const) {
      const refused = await post(buyer, '/upscale-ai-image', { imageUrl, targetResolution: '2k' }, `not-larger-${randomUUID()}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'UPSCALE_NOT_LARGER', error: `This picture is already ${size}: 2K at its ratio is ${size}, not larger. Choose a larger size.` });
    }
    expect(await balanceOf(buyer)).toBe(before);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user: buyer })).body.items).toEqual([]);
    // 4K of the square is 4096×4096, made at exactly that size.
    const larger = await post(buyer, '/upscale-ai-image', { imageUrl: square, targetResolution: '4k' });
    expect(larger.status).toBe(200);
    expect(await settled(buyer, larger.body.generationId)).toMatchObject({ status: 'complete', width: 4096, height: 4096, credits_used: 2 });
    await expectLedgerMatchesBalance(buyer);
  });

  it('refuses links, other users\' keys and other users\' generations, charging nothing', async () => {
    const stranger = await createUser(twin);
    const strangerItem = await addClothingItem(stranger);
    const before = await balanceOf(user);
    const attempts: [string, Record<string, unknown>, number][] = [
      ['/edit-ai-image', { imageUrl: 'https://example.com/shirt.png', editPrompt: 'mirror' }, 400],
      ['/edit-ai-image', { imageUrl: 'http://169.254.169.254/latest/meta-data', editPrompt: 'mirror' }, 400],
      ['/upscale-ai-image', { imageUrl: 's3://bucket/key.png', targetResolution: '2k' }, 400],
      ['/upscale-ai-image', { imageUrl: strangerItem.image_url, targetResolution: '2k' }, 403],
      ['/edit-ai-image', { imageUrl: `${stranger.sub}/generations/${source.id}.png`, editPrompt: 'mirror' }, 403],
      ['/edit-ai-image', { imageUrl: `${user.sub}/../${stranger.sub}/x.png`, editPrompt: 'mirror' }, 400],
    ];
    for (const [path, body, status] of attempts) {
      const answer = await post(user, path, body);
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(status);
    }
    // The stranger may not use this user's generation id or result key.
    const byId = await post(stranger, '/upscale-ai-image', { imageUrl: source.id, targetResolution: '2k' });
    expect(byId.status).toBe(404);
    const byKey = await post(stranger, '/upscale-ai-image', { imageUrl: `${user.sub}/generations/${source.id}.png`, targetResolution: '2k' });
    expect(byKey.status).toBe(403);
    expect(await balanceOf(user)).toBe(before);
    expect(await balanceOf(stranger)).toBe(SIGNUP_CREDITS);
    expect((await api(twin.apiUrl, 'GET', `/generations/${source.id}`, { user: stranger })).status).toBe(404);
  });
});

describe('credits', () => {
  it('answers 402 with the specification message when the balance is short, and changes nothing', async () => {
    const user = await createUser(twin);
    await balanceOf(user);
    await credits.debit(user.sub, { idempotencyKey: randomUUID(), amount: SIGNUP_CREDITS - 1, description: 'test: spend down', ref: 'test' });
    const source = await generated(user, { imageData: dataUrl(product), imageSize: '1k' });
    expect(await balanceOf(user)).toBe(0);

    const upscale = await post(user, '/upscale-ai-image', { imageUrl: source.id, targetResolution: '8k' });
    expect(upscale).toMatchObject({
      status: 402,
      body: { code: 'INSUFFICIENT_CREDITS', error: 'Insufficient credits: you need 3 credits but only have 0.' },
    });
    const generate = await post(user, '/generate-ai-image', { imageData: dataUrl(product), prompt: 'model' });
    expect(generate).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_CREDITS' } });
    expect(await balanceOf(user)).toBe(0);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user })).body.items).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('charges a request retried with the same Idempotency-Key once, for one generation', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const body = { imageData: dataUrl(product), prompt: 'young male model', imageSize: '1k' };
    // Two at once (a double click) and one later (a retry after a lost answer).
    const [first, second] = await Promise.all([post(user, '/generate-ai-image', body, key), post(user, '/generate-ai-image', body, key)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.generationId).toBe(first.body.generationId);
    const done = await settled(user, first.body.generationId);
    const third = await post(user, '/generate-ai-image', body, key);
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ generationId: done.id, status: 'complete', remainingCredits: SIGNUP_CREDITS - 1 });
    expect(third.body.imageUrl).toMatch(/^http/);

    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 1);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user })).body.items).toHaveLength(1);
    const debits = (await ledgerRepo.listWholeLedger(user.sub)).filter((entry) => entry.transaction_type === 'debit');
    expect(debits).toHaveLength(1);

    const reused = await post(user, '/generate-ai-image', { ...body, prompt: 'another model' }, key);
    expect(reused).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    await expectLedgerMatchesBalance(user);
  });
});

describe('an edit the preview engine does not understand', () => {
  it('is refused before any charge: a 400 naming it, no row, the balance untouched', async () => {
    const user = await createUser(twin);
    const source = await generated(user, { imageData: dataUrl(product), imageSize: '1k' });
    const before = await balanceOf(user);
    const rowsBefore = (await generationsRepo.listGenerations(user.sub, { limit: 50 })).length;
    const answer = await post(user, '/edit-ai-image', { imageUrl: source.id, editPrompt: 'make it sparkle like a disco ball' });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'UNSUPPORTED_EDIT',
        error: 'Unsupported edit instruction "make it sparkle like a disco ball". See the list of instructions the local engine understands.',
      },
    });
    expect(await balanceOf(user)).toBe(before);
    expect(await generationsRepo.listGenerations(user.sub, { limit: 50 })).toHaveLength(rowsBefore);
    await expectLedgerMatchesBalance(user);
  });

  it('understands everyday edits: a colour by name, warmer, a crop to a ratio', async () => {
    const user = await createUser(twin);
    const source = await generated(user, { imageData: dataUrl(product), imageSize: '1k' });
    const answer = await post(user, '/edit-ai-image', { imageUrl: source.id, editPrompt: 'light blue background, warmer by 10% and crop to 1:1' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const edit = await settled(user, answer.body.generationId);
    expect(edit).toMatchObject({ status: 'complete', width: 720, height: 720 });
  });
});

describe('a provider failure', () => {
  it('ends the generation failed with the engine\'s message and refunds it exactly once', async () => {
    const user = await createUser(twin);
    const before = await balanceOf(user);
    // The preview engine's fault knob fails the picture as a provider would: in the workflow, after the charge.
    const key = randomUUID();
    const request = { imageData: dataUrl(product), imageSize: '1k', prompt: 'young female model [local-engine: fail]' };
    const answer = await post(user, '/generate-ai-image', request, key);
    expect(answer.status).toBe(200);
    expect(answer.body.remainingCredits).toBe(before - 1);
    const failed = await settled(user, answer.body.generationId);
    // Refunded in full: History shows it as refunded (net 0), not as 1 credit spent.
    expect(failed).toMatchObject({ status: 'failed', credits_used: 1, credits_refunded: 1, result_url: null });
    // A provider's own failure text never reaches the user: the catalogue's message does.
    expect(failed.error_message).toMatch(/^Generation failed\. Your credits were refunded/);

    await expect.poll(() => balanceOf(user)).toBe(before);
    const refunds = (await ledgerRepo.listWholeLedger(user.sub)).filter((entry) => entry.transaction_type === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(1);
    await expectLedgerMatchesBalance(user);

    // Retrying the same request answers the failed generation; nothing is charged or refunded again.
    const retried = await post(user, '/generate-ai-image', request, key);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ generationId: answer.body.generationId, status: 'failed' });
    expect(await balanceOf(user)).toBe(before);
    await expectLedgerMatchesBalance(user);
  });

  it('keeps the paid job a provider started on its generation while it processes, so a retried attempt waits for that job', async () => {
    const user = await createUser(twin);
    const id = randomUUID();
    await generationsRepo.createGeneration({
      user_id: user.sub,
      id,
      generation_type: 'image',
      operation: 'on-model',
      ai_model: 'fashn:product-to-model',
      status: 'processing',
      credits_used: 1,
      created_at: new Date().toISOString(),
      params: { prompt: 'a model' },
    });

    expect(await generationsRepo.recordProviderJob(user.sub, id, 'pred-1')).toBe(true);
    // The attempt that started it may record it again; another job never replaces it.
    expect(await generationsRepo.recordProviderJob(user.sub, id, 'pred-1')).toBe(true);
    expect(await generationsRepo.recordProviderJob(user.sub, id, 'pred-2')).toBe(false);
    expect((await generationsRepo.getGeneration(user.sub, id))?.provider_job).toBe('pred-1');

    await generationsRepo.failGeneration(user.sub, id, 'Cancelled');
    expect(await generationsRepo.recordProviderJob(user.sub, id, 'pred-3')).toBe(false);
    expect((await generationsRepo.getGeneration(user.sub, id))?.provider_job).toBe('pred-1');
    // The row as the API answers it says nothing of the provider's job.
    const answered = await api<Generation>(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    expect(JSON.stringify(answered.body)).not.toContain('pred-1');
  });

  it('maps workflow errors to the catalogue and never passes internal text on', () => {
    expect(failureMessage({ Error: 'ProviderContentPolicyError', Cause: 'Filter reason: nudity' })).toBe(CONTENT_POLICY_MESSAGE);
    const lambdaCause = JSON.stringify({ errorType: 'ProviderUnsupportedError', errorMessage: 'Unknown colour "teal".', trace: [] });
    expect(failureMessage({ Error: 'ProviderUnsupportedError', Cause: lambdaCause })).toBe('Unknown colour "teal".');
    for (const error of ['ProviderTransientError', 'ProviderFailedError', 'States.Timeout', 'TypeError', undefined]) {
      expect(failureMessage({ Error: error, Cause: 'ECONNRESET at table modelloop-generations' })).toBe(GENERATION_MESSAGES.genericFailure);
    }
  });
});

describe('GET /generations', () => {
  it('lists newest first with the type filter, the picker and the limit; GET /generations/{id} reads one', async () => {
    const user = await createUser(twin);
    const first = await generated(user, { imageData: dataUrl(product), imageSize: '1k' });
    // A failed picture (the preview engine's fault knob): listed, but never offered by the picker.
    const failedEdit = await post(user, '/generate-ai-image', { imageData: dataUrl(product), imageSize: '1k', prompt: 'model [local-engine: fail]' });
    await settled(user, failedEdit.body.generationId);
    const edit = await post(user, '/edit-ai-image', { imageUrl: first.id, editPrompt: 'darken' });
    await settled(user, edit.body.generationId);

    const list = async (query: string) => {
      const answer: ApiAnswer<{ items: Generation[] }> = await api(twin.apiUrl, 'GET', `/generations${query}`, { user });
      expect(answer.status).toBe(200);
      return answer.body.items.map((item) => item.id);
    };
    expect(await list('')).toEqual([edit.body.generationId, failedEdit.body.generationId, first.id]);
    expect(await list('?type=image&limit=2')).toEqual([edit.body.generationId, failedEdit.body.generationId]);
    expect(await list('?type=video')).toEqual([]);
    expect(await list('?picker=true')).toEqual([edit.body.generationId, first.id]);
    expect((await api(twin.apiUrl, 'GET', '/generations?limit=101', { user })).status).toBe(400);
    expect((await api(twin.apiUrl, 'GET', '/generations/no-such-generation', { user })).status).toBe(404);
  });

  it('tells the edit screen what the local engine understands', async () => {
    const answer = await api(twin.apiUrl, 'GET', '/edit-instructions');
    expect(answer.status).toBe(200);
    expect(answer.body.engine).toBe('local-engine');
    expect(answer.body.instructions.map((entry: { instruction: string }) => entry.instruction)).toContain('mirror (or: flip horizontally)');
  });
});
