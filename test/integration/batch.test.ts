// Batch generation over HTTP against the local twin: POST /generate-batch checks, charges one debit, records the batch
// and its photo rows and starts the batch workflow (lib/workflows/batch.asl.json on the local Step Functions API);
// the local studio engine makes every photo; failures are refunded photo by photo; the summary ends the batch.
// An entry's image may also be one of the caller's finished images (a result's "Add to batch"), checked as upscale checks it.
import { randomUUID } from 'node:crypto';
import { SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { BATCH_MAX_ENTRIES, BATCH_MAX_PHOTOS, BATCH_MESSAGES, type Batch, type BatchDownload } from '../../lambdas/contracts/batch.js';
import { IMAGE_SIZES, PRICING_TIER_SEED, SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { PACKSHOT_PRESETS } from '../../lambdas/contracts/marketplace.js';
import { readDigitalSourceType } from '../../lambdas/domain/images/provenance.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { workflowEnvName } from '../../lambdas/workflows.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { photographicFixture, readPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { moneyChecks } from '../support/money.js';
import { api } from '../support/api.js';
import { offWhiteBorderPixels } from '../support/pictures.js';
import { readZip } from '../support/zip.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { balanceOf, expectLedgerMatchesBalance } = moneyChecks(twin.apiUrl);
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const batchesRepo = await import('../../lambdas/data/batches-repo.js');

const sfn = new SFNClient({ endpoint: twin.env.AWS_ENDPOINT_URL_SFN, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS });

let product: Buffer;
beforeAll(async () => {
  product = await tshirtPhoto(600, 700);
});

// ——— helpers ———

const submit = (user: TestUser, body: unknown, key: string = randomUUID()) =>
  api(twin.apiUrl, 'POST', '/generate-batch', { user, body, headers: { 'idempotency-key': key } });

async function buy(user: TestUser, credits: number): Promise<void> {
  const answer = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': randomUUID() } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function ledgerOf(user: TestUser) {
  return ledgerRepo.listWholeLedger(user.sub);
}

async function addClothingItem(user: TestUser, name: string, photo: Buffer = product): Promise<{ id: string }> {
  const { body: upload } = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', {
    user,
    body: { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
  });
  expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: photo })).status).toBe(200);
  const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.imageKey, name } });
  expect(item.status).toBe(201);
  return item.body;
}

/** Follows a batch as the web app does without the socket: GET /batches/{id} until its summary is there. */
async function finished(user: TestUser, id: string, timeoutMs = 110_000): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<Batch>(twin.apiUrl, 'GET', `/batches/${id}`, { user });
    expect(status, JSON.stringify(body)).toBe(200);
    if (body.summary) return body;
    if (Date.now() > deadline) throw new Error(`Batch ${id} not finished after ${timeoutMs} ms: ${JSON.stringify(body.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** An on-model photo of the item (1 credit), followed until it ends: complete, or failed for a `[local-engine: fail]` prompt. */
async function onModelPhoto(user: TestUser, clothingItemId: string, prompt = 'young female model'): Promise<Generation> {
  const started = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
    user,
    body: { clothingItemId, productType: 'clothing', prompt, imageSize: '1k' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${started.body.generationId}`, { user });
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`Generation ${body.id} still processing`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** "Download all" as the web app does: ask (202), follow the batch until its zip is ready, ask again for the URL. */
async function downloadWhenReady(user: TestUser, batchId: string, timeoutMs = 60_000): Promise<BatchDownload> {
  const first = await api<BatchDownload>(twin.apiUrl, 'POST', `/batches/${batchId}/download`, { user });
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  if (first.body.status === 'ready') return first.body;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api<Batch>(twin.apiUrl, 'GET', `/batches/${batchId}`, { user });
    expect(body.download?.status).not.toBe('failed');
    if (body.download?.status === 'ready') break;
    if (Date.now() > deadline) throw new Error(`The zip of batch ${batchId} is not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const ready = await api<BatchDownload>(twin.apiUrl, 'POST', `/batches/${batchId}/download`, { user });
  expect(ready.status).toBe(202);
  return ready.body;
}

const entry = (clothingItemId: string, cameraAngles: string[], extra: Record<string, unknown> = {}) => ({
  clothingItemId,
  prompt: 'young female model',
  cameraAngles,
  backdrop: 'white',
  ...extra,
});

// ——— tests ———

describe('POST /generate-batch', () => {
  it('makes 3 entries × 2 angles = 6 photos for 6 credits in one debit, 6 history rows, summary 6/0', async () => {
    const user = await createUser(twin);
    await buy(user, 10);
    const [shirt, tee] = [await addClothingItem(user, 'Linen shirt'), await addClothingItem(user, 'Red tee')];
    const answer = await submit(user, {
      batchItems: [
        entry(shirt.id, ['Product', 'Front']),
        entry(tee.id, ['Full Body', 'Mid-shot'], { backdrop: '#D6E6F4' }),
        entry(shirt.id, ['Back', 'Side'], { backdrop: 'beige', prompt: 'tall male model' }),
      ],
      aiModel: 'modelloop-studio',
      imageSize: '1k',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ photoCount: 6, remainingCredits: SIGNUP_CREDITS + 10 - 6 });
    expect(answer.body.message).toMatch(/6 photos/);

    const batch = await finished(user, answer.body.batchId);
    expect(batch.summary).toEqual({ message: expect.stringContaining(BATCH_MESSAGES.complete), successfulGenerations: 6, failedGenerations: 0 });
    expect(batch.progress).toEqual({ done: 6, failed: 0, total: 6 });
    expect(batch.status).toBe('complete');
    expect(batch.photos!.map((photo) => [photo.entryIndex, photo.cameraAngle, photo.clothingItemName])).toEqual([
      [0, 'Product', 'Linen shirt'],
      [0, 'Front', 'Linen shirt'],
      [1, 'Full Body', 'Red tee'],
      [1, 'Mid-shot', 'Red tee'],
      [2, 'Back', 'Linen shirt'],
      [2, 'Side', 'Linen shirt'],
    ]);
    for (const photo of batch.photos!) {
      expect(photo.generation).toMatchObject({ generation_type: 'batch', status: 'complete', credits_used: 1, ai_model: 'preview-engine', width: 720, height: 1280 });
    }

    // Each angle is its own picture, at exactly the size asked for, on its entry's backdrop colour.
    const pictures = await Promise.all(batch.photos!.map(async (photo) => Buffer.from(await (await fetch(photo.generation.result_url!)).arrayBuffer())));
    const fingerprints = await Promise.all(pictures.map((bytes) => sharp(bytes).resize(16, 28, { fit: 'fill' }).greyscale().raw().toBuffer()));
    for (let a = 0; a < fingerprints.length; a++) {
      expect((await sharp(pictures[a]).metadata()).width).toBe(IMAGE_SIZES['1k'].width);
      for (let b = a + 1; b < fingerprints.length; b++) {
        const difference = fingerprints[a]!.reduce((sum, value, i) => sum + Math.abs(value - fingerprints[b]![i]!), 0) / fingerprints[a]!.length;
        expect(difference, `${batch.photos![a]!.cameraAngle} vs ${batch.photos![b]!.cameraAngle}`).toBeGreaterThan(2);
      }
    }
    // The top-right corner is backdrop: light blue for the second entry.
    // (Pixels read out first: sharp's stats() measures the whole input, not the extracted region.)
    const corner = await sharp(await sharp(pictures[2]).extract({ left: 690, top: 300, width: 20, height: 20 }).png().toBuffer()).stats();
    expect(corner.channels[2]!.mean).toBeGreaterThan(corner.channels[0]!.mean + 5);

    const history = await api(twin.apiUrl, 'GET', '/generations?type=batch', { user });
    expect(history.body.items.map((row: Generation) => row.generation_type)).toEqual(Array(6).fill('batch'));

    const ledger = await ledgerOf(user);
    expect(ledger.filter((line) => line.transaction_type === 'debit')).toEqual([expect.objectContaining({ amount: -6, description: 'Batch generation (6 photos)' })]);
    expect(ledger.filter((line) => line.transaction_type === 'refund')).toEqual([]);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 10 - 6);
    await expectLedgerMatchesBalance(user);

    const list = await api(twin.apiUrl, 'GET', '/batches', { user });
    expect(list.body.items.map((row: Batch) => row.id)).toEqual([answer.body.batchId]);

    // Download all: workflow work. Two requests at once start one zip job and answer 202 at once, building.
    expect(batch.download).toBeNull();
    const fileName = `batch-${answer.body.batchId.slice(0, 8)}.zip`;
    const asked = await Promise.all([1, 2].map(() => api(twin.apiUrl, 'POST', `/batches/${answer.body.batchId}/download`, { user })));
    for (const first of asked) {
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expect(first.body).toEqual({ status: 'building', url: null, expiresAt: null, fileName, photoCount: 6 });
    }
    // Ready is told by the batch itself (its live change, or its poll), then asking again answers the signed URL.
    const download = await downloadWhenReady(user, answer.body.batchId);
    expect(download).toMatchObject({ status: 'ready', photoCount: 6, fileName, url: expect.any(String), expiresAt: expect.any(String) });
    expect((await batchesRepo.getBatch(user.sub, answer.body.batchId))!.archive_attempt).toBe(1);
    const zipResponse = await fetch(download.url!);
    expect(zipResponse.headers.get('content-disposition')).toContain('attachment');
    const files = readZip(Buffer.from(await zipResponse.arrayBuffer()));
    expect([...files.keys()]).toEqual([
      'manifest.csv',
      'linen-shirt-product-720x1280.png',
      'linen-shirt-front-720x1280.png',
      'red-tee-full-body-720x1280.png',
      'red-tee-mid-shot-720x1280.png',
      'linen-shirt-back-720x1280.png',
      'linen-shirt-side-720x1280.png',
    ]);
    expect(files.get('red-tee-full-body-720x1280.png')!.equals(pictures[2]!)).toBe(true);
    const manifest = files.get('manifest.csv')!.toString('utf8').trim().split('\r\n');
    expect(manifest[0]).toBe('entry,item,angle,backdrop,status,file,error');
    expect(manifest[3]).toBe('2,Red tee,Full Body,#D6E6F4,complete,red-tee-full-body-720x1280.png,');
    // Asked again, the zip built is answered at once: no second job.
    expect((await api(twin.apiUrl, 'POST', `/batches/${answer.body.batchId}/download`, { user })).body).toMatchObject({ status: 'ready', url: expect.any(String) });
    expect((await batchesRepo.getBatch(user.sub, answer.body.batchId))!.archive_attempt).toBe(1);
    // Another user cannot have it.
    const stranger = await createUser(twin);
    expect((await api(twin.apiUrl, 'POST', `/batches/${answer.body.batchId}/download`, { user: stranger })).status).toBe(404);
  });

  it('makes listing-ready packshots as a shot type: preset size, white border, JPEG in the zip; packshot tier, refunded when one fails', async () => {
    const tierCost = (id: string) => PRICING_TIER_SEED.find((tier) => tier.id === id)!.credits_cost;
    const user = await createUser(twin);
    await buy(user, 10);
    // A seller-sized photo: the product is not enlarged past the report's ×3 in Amazon's 2000 px frame.
    const tee = await addClothingItem(user, 'Red tee', await tshirtPhoto(1200, 1400));
    // A picture with no product in it: its packshot cannot be made.
    const blank = await addClothingItem(user, 'Blank card', await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ffffff' } }).jpeg().toBuffer());
    const answer = await submit(user, {
      batchItems: [
        entry(tee.id, ['Front', 'Packshot'], { marketplace: 'amazon' }),
        entry(tee.id, ['Packshot'], { marketplace: 'zalando', backdrop: 'sky' }),
        entry(blank.id, ['Packshot']),
      ],
      imageSize: '1k',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const cost = tierCost('batch-photo') + 3 * tierCost('packshot');
    expect(answer.body).toMatchObject({ photoCount: 4, remainingCredits: SIGNUP_CREDITS + 10 - cost });

    const batch = await finished(user, answer.body.batchId);
    expect(batch.summary).toMatchObject({ successfulGenerations: 3, failedGenerations: 1 });
    expect(batch.entries.map((one) => one.marketplace)).toEqual(['amazon', 'zalando', 'amazon']);
    expect(batch.photos!.map((photo) => [photo.cameraAngle, photo.generation.status, photo.generation.credits_used])).toEqual([
      ['Front', 'complete', tierCost('batch-photo')],
      ['Packshot', 'complete', tierCost('packshot')],
      ['Packshot', 'complete', tierCost('packshot')],
      ['Packshot', 'failed', tierCost('packshot')],
    ]);
    const [, amazon, zalando] = batch.photos!;
    expect(amazon!.generation).toMatchObject({ ai_model: expect.stringMatching(/^packshot-engine:/), result_content_type: 'image/jpeg', width: PACKSHOT_PRESETS.amazon.width, height: PACKSHOT_PRESETS.amazon.height });
    expect(amazon!.generation.compliance!.marketplaces.find((one) => one.marketplace === 'amazon')!.pass).toBe(true);
    // The API names the file as the zip does: product, marketplace, size, and the extension of its bytes.
    expect([amazon!.generation.file_name, zalando!.generation.file_name]).toEqual(['red-tee-amazon-2000.jpg', 'red-tee-zalando-1801x2600.jpg']);
    // The failed packshot's credit came back, naming the batch's debit.
    const refunds = (await ledgerOf(user)).filter((line) => line.transaction_type === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ amount: tierCost('packshot'), description: 'Refund: batch photo failed (Packshot, Blank card)' })]);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 10 - cost + tierCost('packshot'));
    await expectLedgerMatchesBalance(user);

    // "Download all": each packshot is its marketplace's file, exactly: preset size, JPEG, pure white border, provenance.
    const download = await downloadWhenReady(user, answer.body.batchId);
    const files = readZip(Buffer.from(await (await fetch(download.url!)).arrayBuffer()));
    expect([...files.keys()]).toEqual(['manifest.csv', 'red-tee-front-720x1280.png', 'red-tee-amazon-2000.jpg', 'red-tee-zalando-1801x2600.jpg']);
    for (const [name, marketplace, photo] of [
      ['red-tee-amazon-2000.jpg', 'amazon', amazon!],
      ['red-tee-zalando-1801x2600.jpg', 'zalando', zalando!],
    ] as const) {
      const bytes = files.get(name)!;
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height], name).toEqual(['jpeg', PACKSHOT_PRESETS[marketplace].width, PACKSHOT_PRESETS[marketplace].height]);
      expect(await offWhiteBorderPixels(bytes), name).toBe(0);
      expect(await readDigitalSourceType(bytes), name).toBe('compositeSynthetic');
      expect(bytes.equals(Buffer.from(await (await fetch(photo.generation.result_url!)).arrayBuffer())), name).toBe(true);
    }
    const manifest = files.get('manifest.csv')!.toString('utf8');
    expect(manifest).toContain('1,Red tee,Packshot,#ffffff,complete,red-tee-amazon-2000.jpg,');
    expect(manifest).toContain(`3,Blank card,Packshot,#ffffff,failed,,`);
  });

  it('cuts a packshot of a busy photograph with the network its deployed function carries, and names it', async () => {
    // The batch's MakePhoto runs from its own bundle (lib/local/bundles.ts): without the segmentation/ folder its
    // deployed function carries, the cutout falls back to colour distance and the photo says 'colour-key'.
    const user = await createUser(twin);
    const { photo } = await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
    const tee = await addClothingItem(user, 'Tee on the meadow', photo);
    const answer = await submit(user, { batchItems: [entry(tee.id, ['Packshot'], { marketplace: 'amazon' })], imageSize: '1k' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const batch = await finished(user, answer.body.batchId);
    expect(batch.photos!.map((one) => [one.generation.status, one.generation.ai_model])).toEqual([['complete', 'packshot-engine:u2-net-p']]);
  });

  it('refunds exactly the one photo whose provider failed: summary 5/1, one refund, the others delivered', async () => {
    const user = await createUser(twin);
    await buy(user, 10);
    const item = await addClothingItem(user, 'Red tee');
    const answer = await submit(user, {
      batchItems: [
        entry(item.id, ['Front', 'Back'], { prompt: 'young female model [local-engine: fail Back]' }),
        entry(item.id, ['Product', 'Side']),
        entry(item.id, ['Full Body', 'Mid-shot']),
      ],
      imageSize: '1k',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const batch = await finished(user, answer.body.batchId);
    expect(batch.summary).toMatchObject({ successfulGenerations: 5, failedGenerations: 1 });
    expect(batch.summary!.message).toContain(BATCH_MESSAGES.completeWithErrors);
    const failed = batch.photos!.filter((photo) => photo.generation.status === 'failed');
    expect(failed.map((photo) => photo.cameraAngle)).toEqual(['Back']);
    expect(failed[0]!.generation.error_message).toBe(BATCH_MESSAGES.photoFailed);
    expect(failed[0]!.generation.result_url).toBeNull();

    const refunds = (await ledgerOf(user)).filter((line) => line.transaction_type === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ amount: 1, description: 'Refund: batch photo failed (Back, Red tee)' })]);
    // The refund names the batch's one debit and is keyed by the failed photo; the debit has 1 credit refunded of 6.
    const debit = (await ledgerOf(user)).find((line) => line.transaction_type === 'debit')!;
    const refundItem = await ledgerRepo.getLedgerItem(user.sub, refunds[0]!.id);
    expect(refundItem).toMatchObject({ refund_of: debit.id, ref: failed[0]!.generation.id, id: `refund#${failed[0]!.generation.id}` });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 10 - 6 + 1);
    await expectLedgerMatchesBalance(user);

    // A request that marked the zip job building and stopped before starting its execution: the next one runs it.
    expect(await batchesRepo.startArchive(user.sub, answer.body.batchId)).toBe(1);
    expect((await api<Batch>(twin.apiUrl, 'GET', `/batches/${answer.body.batchId}`, { user })).body.download).toEqual({ status: 'building' });
    // The zip has the 5 photos; its manifest names the failed one without a file.
    const download = await downloadWhenReady(user, answer.body.batchId);
    expect((await batchesRepo.getBatch(user.sub, answer.body.batchId))!.archive_attempt).toBe(1);
    expect(download.photoCount).toBe(5);
    const files = readZip(Buffer.from(await (await fetch(download.url!)).arrayBuffer()));
    expect(files.size).toBe(6);
    expect(files.get('manifest.csv')!.toString('utf8')).toContain(`1,Red tee,Back,#FFFFFF,failed,,${BATCH_MESSAGES.photoFailed}`);
  });

  it('refuses bad batches before charging anything, naming the problem', async () => {
    const user = await createUser(twin);
    const stranger = await createUser(twin);
    const [item, deleted, strangers] = [await addClothingItem(user, 'Tee'), await addClothingItem(user, 'Old tee'), await addClothingItem(stranger, 'Not yours')];
    expect((await api(twin.apiUrl, 'DELETE', `/clothing-items/${deleted.id}`, { user })).status).toBe(200);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const before = await ledgerOf(user);

    const refusals: [unknown, number, string | RegExp][] = [
      [{ batchItems: [] }, 400, BATCH_MESSAGES.empty],
      [{}, 400, BATCH_MESSAGES.empty],
      [{ batchItems: Array.from({ length: BATCH_MAX_ENTRIES + 1 }, () => entry(item.id, ['Front'])) }, 400, BATCH_MESSAGES.tooManyEntries],
      // The largest batch there can be (20 entries × all 6 angles = the 120-photo limit) passes the checks; the
      // balance decides.
      [{ batchItems: Array.from({ length: BATCH_MAX_ENTRIES }, () => entry(item.id, ['Product', 'Front', 'Back', 'Full Body', 'Mid-shot', 'Side'])) }, 402, `you need ${BATCH_MAX_PHOTOS} credits`],
      [{ batchItems: [entry(deleted.id, ['Front'])] }, 400, 'Entry 1: this clothing item was not found in your library.'],
      [{ batchItems: [entry(item.id, ['Front']), entry(strangers.id, ['Front'])] }, 400, 'Entry 2: this clothing item was not found in your library.'],
      [{ batchItems: [entry(item.id, ['Front', 'Top'])] }, 400, BATCH_MESSAGES.unknownAngle],
      [{ batchItems: [entry(item.id, ['Front', 'Front'])] }, 400, BATCH_MESSAGES.duplicateAngle],
      [{ batchItems: [entry(item.id, [])] }, 400, BATCH_MESSAGES.selectAngle],
      [{ batchItems: [entry(item.id, ['Front'], { backdrop: 'plaid' })] }, 400, BATCH_MESSAGES.invalidBackdrop],
      [{ batchItems: [entry(item.id, ['Front'], { backdrop: '#12345' })] }, 400, BATCH_MESSAGES.invalidBackdrop],
      // 6 photos against the 5 sign-up credits.
      [{ batchItems: [entry(item.id, ['Product', 'Front', 'Back', 'Full Body', 'Mid-shot', 'Side'])] }, 402, 'you need 6 credits but only have 5'],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await submit(user, body);
      expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(answer.body.error).toContain(message);
    }
    expect((await submit(user, { batchItems: [entry(item.id, ['Front'])] }, 'not a key!')).status).toBe(400);
    const missingKey = await api(twin.apiUrl, 'POST', '/generate-batch', { user, body: { batchItems: [entry(item.id, ['Front'])] } });
    expect(missingKey.status).toBe(400);

    expect(await ledgerOf(user)).toEqual(before);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect((await api(twin.apiUrl, 'GET', '/batches', { user })).body.items).toEqual([]);
    expect((await api(twin.apiUrl, 'GET', '/generations?type=batch', { user })).body.items).toEqual([]);
  });

  it('treats a retry with the same key as the same batch: one batch, one charge; another user gets 404', async () => {
    const user = await createUser(twin);
    const item = await addClothingItem(user, 'Tee');
    const body = { batchItems: [entry(item.id, ['Front', 'Side'])], imageSize: '1k' };
    const key = randomUUID();
    const [first, second] = await Promise.all([submit(user, body, key), submit(user, body, key)]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.batchId).toBe(first.body.batchId);
    await finished(user, first.body.batchId);
    const third = await submit(user, body, key);
    expect(third.body).toMatchObject({ batchId: first.body.batchId, photoCount: 2 });

    const debits = (await ledgerOf(user)).filter((line) => line.transaction_type === 'debit');
    expect(debits).toHaveLength(1);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 2);
    expect((await api(twin.apiUrl, 'GET', '/batches', { user })).body.items).toHaveLength(1);
    expect((await api(twin.apiUrl, 'GET', '/generations?type=batch', { user })).body.items).toHaveLength(2);

    // The same key with another body is not a replay.
    const reused = await submit(user, { batchItems: [entry(item.id, ['Back'])] }, key);
    expect(reused.status).toBe(409);
    await expectLedgerMatchesBalance(user);

    const stranger = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', `/batches/${first.body.batchId}`, { user: stranger })).status).toBe(404);
    expect((await api(twin.apiUrl, 'GET', '/batches/not..an..id', { user })).status).toBe(404);
  });

  it('takes one of the caller’s finished images as an entry: checked as upscale checks it, charged per photo in the one debit', async () => {
    const user = await createUser(twin);
    await buy(user, 10);
    const item = await addClothingItem(user, 'Linen shirt');
    const photo = await onModelPhoto(user, item.id);
    expect(photo.status).toBe('complete');
    const failed = await onModelPhoto(user, item.id, 'young female model [local-engine: fail]');
    expect(failed.status).toBe('failed');
    const balance = SIGNUP_CREDITS + 10 - 1;
    // The Fail task ends the row, then refunds it (a crash between the two is settled by the reconciler): on a loaded
    // machine the balance can lag the failed row by a moment.
    await expect.poll(() => balanceOf(user), { timeout: 15_000 }).toBe(balance);
    const fromResult = (generationId: string, cameraAngles: string[]) => ({ generationId, prompt: 'young female model', cameraAngles, backdrop: 'white' });

    // Someone else's image is not found, with the code and message upscale gives for it; so is an unknown id.
    const stranger = await createUser(twin);
    const upscale = await api(twin.apiUrl, 'POST', '/upscale-ai-image', {
      user: stranger,
      body: { imageUrl: photo.id, targetResolution: '2k' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(upscale.body).toMatchObject({ code: 'NOT_FOUND', error: 'This generation was not found.' });
    const foreign = await submit(stranger, { batchItems: [fromResult(photo.id, ['Front'])], imageSize: '1k' });
    expect(foreign.status).toBe(upscale.status);
    expect(foreign.body).toMatchObject({ code: upscale.body.code, error: upscale.body.error });
    const unknown = await submit(user, { batchItems: [fromResult('1700000000000-0123456789abcdef', ['Front'])] });
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', error: 'This generation was not found.' });
    expect(unknown.status).toBe(404);
    // A generation without a finished image, a malformed id, and two images in one entry are refused too.
    const unfinished = await submit(user, { batchItems: [entry(item.id, ['Front']), fromResult(failed.id, ['Front'])] });
    expect(unfinished).toMatchObject({ status: 409, body: { code: 'IMAGE_NOT_READY' } });
    const malformed = await submit(user, { batchItems: [fromResult('../x', ['Front'])] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('This is not a generation id.');
    const both = await submit(user, { batchItems: [{ ...fromResult(photo.id, ['Front']), clothingItemId: item.id }] });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain(BATCH_MESSAGES.oneSource);
    const neither = await submit(user, { batchItems: [{ cameraAngles: ['Front'] }] });
    expect(neither.status).toBe(400);
    expect(neither.body.error).toContain(BATCH_MESSAGES.selectItem);
    expect(await balanceOf(stranger)).toBe(SIGNUP_CREDITS);
    expect(await balanceOf(user)).toBe(balance);

    // The result × 2 angles and a library item × 1: 3 photos, 3 credits in one debit.
    const answer = await submit(user, { batchItems: [fromResult(photo.id, ['Front', 'Back']), entry(item.id, ['Product'])], imageSize: '1k' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ photoCount: 3, remainingCredits: balance - 3 });
    const batch = await finished(user, answer.body.batchId);
    expect(batch.summary).toMatchObject({ successfulGenerations: 3, failedGenerations: 0 });
    const resultName = `Image from ${photo.created_at.slice(0, 16).replace('T', ' ')} UTC`;
    expect(batch.entries.map((one) => [one.generationId, one.clothingItemId, one.clothingItemName])).toEqual([
      [photo.id, null, resultName],
      [null, item.id, 'Linen shirt'],
    ]);
    expect(batch.photos!.map((one) => [one.cameraAngle, one.clothingItemId, one.clothingItemName, one.generation.status])).toEqual([
      ['Front', null, resultName, 'complete'],
      ['Back', null, resultName, 'complete'],
      ['Product', item.id, 'Linen shirt', 'complete'],
    ]);
    // The photos of the first entry were made from the result's own picture.
    const row = await generationsRepo.getGeneration(user.sub, batch.photos![0]!.generation.id);
    const sourceRow = await generationsRepo.getGeneration(user.sub, photo.id);
    expect(row!.source).toEqual({ kind: 'generation', bucket: 'results', key: sourceRow!.result_key, ref: photo.id });
    expect(row!.clothing_item_id).toBeUndefined();

    const ledger = await ledgerOf(user);
    expect(ledger.filter((line) => line.transaction_type === 'debit').map((line) => [line.amount, line.description])).toEqual([
      [-1, expect.any(String)],
      [-1, expect.any(String)],
      [-3, 'Batch generation (3 photos)'],
    ]);
    expect(await balanceOf(user)).toBe(balance - 3);
    await expectLedgerMatchesBalance(user);
  });

  it('settles a stopped batch: every unfinished photo is failed and refunded once, the summary written', async () => {
    const user = await createUser(twin);
    await buy(user, 20);
    const item = await addClothingItem(user, 'Tee');
    const all = ['Product', 'Front', 'Back', 'Full Body', 'Mid-shot', 'Side'];
    const answer = await submit(user, { batchItems: [entry(item.id, all), entry(item.id, all)], imageSize: '2k' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const executionArn = `${twin.env[workflowEnvName('batch')]!.replace(':stateMachine:', ':execution:')}:${answer.body.batchId}`;
    await sfn.send(new StopExecutionCommand({ executionArn, error: 'OperatorStop', cause: 'stopped by an operator' }));

    const batch = await finished(user, answer.body.batchId);
    const { successfulGenerations: made, failedGenerations: notMade } = batch.summary!;
    expect(made + notMade).toBe(12);
    expect(notMade).toBeGreaterThan(0);
    const failed = batch.photos!.filter((photo) => photo.generation.status === 'failed');
    expect(failed).toHaveLength(notMade);
    for (const photo of failed) expect(photo.generation.error_message).toBe(BATCH_MESSAGES.photoStopped);

    // A photo still running when the stop came may finish later; it never changes the money.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const refunds = (await ledgerOf(user)).filter((line) => line.transaction_type === 'refund');
    expect(refunds).toHaveLength(notMade);
    expect(refunds.every((line) => line.amount === 1)).toBe(true);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 20 - 12 + notMade);
    const settled = await finished(user, answer.body.batchId);
    expect(settled.photos!.filter((photo) => photo.generation.status === 'complete')).toHaveLength(made);
    await expectLedgerMatchesBalance(user);
  });
});
