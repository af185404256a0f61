// Saved models over HTTP against a twin of this file's own: create (with an uploaded portrait and its rights
// confirmation, from a finished result, or from words), list, rename, delete, the cap of 50, ownership on every route
// that takes a model id (the web API and the public API), and the model travelling to the on-model provider: this
// twin's on-model functions are configured as a cloud stage's with FASHN, whose API is the contract fake
// (test/support/fake-fashn.ts), so what the provider is sent is read off the wire: prompt, seed and face_reference.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MODELS_PER_USER, MODEL_MESSAGES } from '../../lambdas/contracts/models.js';
import { startTwin, type Twin, type TwinInfo } from '../../lib/local/twin.js';
import sharp from 'sharp';
import { api } from '../support/api.js';
import { fakeFashnTarget, startFakeFashn, type FakeFashn, type FakeFashnRun } from '../support/fake-fashn.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { addClothingItem, onModelPhoto } from '../support/sources.js';
import { listKeys, productJpeg, twinS3, uploadFile } from '../support/uploads.js';
import { createUser, type TestUser } from '../support/users.js';
import { exportAndDownload } from '../support/exports.js';
import { readZip } from '../support/zip.js';
import { portraitPhoto } from '../fixtures/faces.js';

let dataDir: string;
let twin: Twin;
let info: TwinInfo;
let fake: FakeFashn;
const FASHN_KEY = 'fa-loopback-key';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-models-'));
  fake = await startFakeFashn({ apiKey: FASHN_KEY });
  fake.image = await sharp({ create: { width: 576, height: 1024, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();
  Object.assign(process.env, { PROVIDER_IMAGE: 'fashn', FASHN_API_URL: fake.baseUrl, FASHN_API_KEY: FASHN_KEY });
  twin = await startTwin({ dataDir, testFetchTargets: [fakeFashnTarget(fake)] });
  info = twin.info;
  Object.assign(process.env, twin.env);
}, 600_000);

/** What FASHN was sent for pictures of a model with these words (its prompt carries them), since run `from`. */
const runsFor = (description: string, from = 0): FakeFashnRun[] => fake.runs.slice(from).filter((run) => String(run.inputs.prompt).includes(description));

afterAll(async () => {
  await twin?.stop();
  await fake?.close();
  for (const name of ['PROVIDER_IMAGE', 'FASHN_API_URL', 'FASHN_API_KEY']) delete process.env[name];
  rmSync(dataDir, { recursive: true, force: true });
});

/** A photograph of one person: a portrait must show exactly one face. */
const portrait = () => portraitPhoto();

const MAYA = 'woman in her late twenties, warm brown skin, shoulder-length curly black hair, relaxed smile';

const create = (user: TestUser, body: Record<string, unknown>) => api(info.apiUrl, 'POST', '/models', { user, body });
const list = async (user: TestUser) => {
  const answer = await api(info.apiUrl, 'GET', '/models', { user });
  expect(answer.status).toBe(200);
  return answer.body.items as { id: string; name: string; description: string; seed: number; portrait_url: string | null; preview_url: string | null; rights_confirmed_at: string | null }[];
};
const uploadPortrait = async (user: TestUser) => uploadFile(info, user, '/models/upload-url', await portrait(), 'maya.jpg');
const key = () => ({ 'idempotency-key': randomUUID() });

async function settled(user: TestUser, path: string, done: (body: any) => boolean, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(info.apiUrl, 'GET', path, { user });
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`${path} not settled: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('saved models', () => {
  it('are created from words, with an uploaded portrait and its rights confirmation, listed, renamed and deleted', async () => {
    const user = await createUser(info);
    const s3 = twinS3(info);
    const bucket = info.env.BUCKET_CLOTHING_IMAGES!;

    // An upload without the confirmation is refused, with the message, and no model is saved.
    const refusedKey = await uploadPortrait(user);
    expect(refusedKey).toMatch(new RegExp(`^${user.sub}/models/\\d{13}-[0-9a-f]{16}\\.jpg$`));
    const refused = await create(user, { name: 'Maya', description: MAYA, imageKey: refusedKey });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', error: expect.stringContaining(MODEL_MESSAGES.confirmRights) } });
    expect(await create(user, { name: 'Maya', description: MAYA, imageKey: refusedKey, rightsConfirmed: false })).toMatchObject({ status: 400 });
    expect(await list(user)).toEqual([]);

    // Confirmed: stored with the time of the confirmation and a signed URL of the portrait.
    const before = Date.now();
    const saved = await create(user, { name: 'Maya', description: MAYA, imageKey: refusedKey, rightsConfirmed: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body).toMatchObject({ id: expect.stringMatching(/^mdl_/), name: 'Maya', description: MAYA, portrait_source: 'upload', seed: expect.any(Number) });
    expect(Date.parse(saved.body.rights_confirmed_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await fetch(saved.body.portrait_url)).status).toBe(200);

    // A clothing registration cannot take a portrait upload (another folder, another route).
    expect((await api(info.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: refusedKey, name: 'x' } })).status).toBe(400);

    const plain = await create(user, { name: 'Leo', description: 'man in his forties, short grey hair, slim build' });
    expect(plain).toMatchObject({ status: 201, body: { portrait_source: null, portrait_url: null, rights_confirmed_at: null, preview_url: null } });
    expect((await list(user)).map((model) => model.name)).toEqual(['Leo', 'Maya']);

    const renamed = await api(info.apiUrl, 'PATCH', `/models/${saved.body.id}`, { user, body: { name: 'Maya (spring)' } });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Maya (spring)', description: MAYA, seed: saved.body.seed } });

    expect(await api(info.apiUrl, 'DELETE', `/models/${saved.body.id}`, { user })).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await list(user)).map((model) => model.name)).toEqual(['Leo']);
    // The uploaded portrait went with it.
    expect(await listKeys(s3, bucket, `${user.sub}/models/`)).toEqual([]);
    expect(await api(info.apiUrl, 'DELETE', `/models/${saved.body.id}`, { user })).toMatchObject({ status: 404 });
  }, 120_000);

  it(`hold at most ${MAX_MODELS_PER_USER} per user, even when asked for at once`, async () => {
    const user = await createUser(info);
    const answers = await Promise.all(
      Array.from({ length: MAX_MODELS_PER_USER + 6 }, (_, index) => create(user, { name: `Model ${index}`, description: `person number ${index}` })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_MODELS_PER_USER);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body)).toEqual(
      Array(6).fill({ code: 'MODEL_LIMIT_REACHED', error: MODEL_MESSAGES.limitReached }),
    );
    expect(await list(user)).toHaveLength(MAX_MODELS_PER_USER);
    // A deleted one frees its place.
    const [first] = await list(user);
    expect((await api(info.apiUrl, 'DELETE', `/models/${first!.id}`, { user })).status).toBe(200);
    expect((await create(user, { name: 'One more', description: 'person' })).status).toBe(201);
    expect((await create(user, { name: 'Too many', description: 'person' })).status).toBe(409);
  }, 180_000);

  it("are someone else's: 404 on every route and in every request that names one, on the web API and the public API", async () => {
    const owner = await createUser(info);
    const other = await createUser(info);
    const model = (await create(owner, { name: 'Maya', description: MAYA })).body;
    const item = await addClothingItem(info.apiUrl, other, await productJpeg());
    const otherKey = (await createApiKey(info.apiUrl, other)).key;
    const balance = async () => (await api(info.apiUrl, 'GET', '/profile', { user: other })).body.current_credits;
    const credits = await balance();

    expect(await api(info.apiUrl, 'PATCH', `/models/${model.id}`, { user: other, body: { name: 'mine now' } })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await api(info.apiUrl, 'DELETE', `/models/${model.id}`, { user: other })).toMatchObject({ status: 404 });
    expect(await list(other)).toEqual([]);
    const image = { clothingItemId: item.id, modelId: model.id };
    expect(await api(info.apiUrl, 'POST', '/generate-ai-image', { user: other, body: image, headers: key() })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', error: MODEL_MESSAGES.notFound } });
    const batch = { modelId: model.id, imageSize: '1k', batchItems: [{ clothingItemId: item.id, cameraAngles: ['Front'] }] };
    expect(await api(info.apiUrl, 'POST', '/generate-batch', { user: other, body: batch, headers: key() })).toMatchObject({ status: 404 });
    expect(await keyApi(info.apiUrl, otherKey, 'POST', '/generate-ai-image', { body: image, headers: key() })).toMatchObject({ status: 404 });
    expect(await keyApi(info.apiUrl, otherKey, 'POST', '/generate-batch', { body: batch, headers: key() })).toMatchObject({ status: 404 });
    expect(await keyApi(info.apiUrl, otherKey, 'PATCH', `/models/${model.id}`, { body: { name: 'x' } })).toMatchObject({ status: 404 });
    expect(await keyApi(info.apiUrl, otherKey, 'DELETE', `/models/${model.id}`)).toMatchObject({ status: 404 });
    expect((await keyApi(info.apiUrl, otherKey, 'GET', '/models')).body).toEqual({ items: [] });
    // Nothing was charged for any of the refused requests, and the owner's model is untouched.
    expect(await balance()).toBe(credits);
    expect((await list(owner))[0]).toMatchObject({ id: model.id, name: 'Maya' });
    // A result of someone else is no portrait either.
    const result = await onModelPhoto(info.apiUrl, other, item.id);
    expect(await create(owner, { name: 'Stolen', description: MAYA, generationId: result })).toMatchObject({ status: 404 });
  }, 180_000);

  it('are served by the public API: GET, POST, PATCH and DELETE /v1/models', async () => {
    const user = await createUser(info);
    const apiKey = (await createApiKey(info.apiUrl, user)).key;
    const created = await keyApi(info.apiUrl, apiKey, 'POST', '/models', { body: { name: 'Ava', description: 'teenage-looking adult woman, freckles, red hair' } });
    expect(created).toMatchObject({ status: 201, body: { name: 'Ava' } });
    expect((await keyApi(info.apiUrl, apiKey, 'GET', '/models')).body.items).toEqual([expect.objectContaining({ id: created.body.id })]);
    expect(await keyApi(info.apiUrl, apiKey, 'PATCH', `/models/${created.body.id}`, { body: { description: 'adult woman, freckles, red hair' } })).toMatchObject({
      status: 200,
      body: { description: 'adult woman, freckles, red hair' },
    });
    expect(await keyApi(info.apiUrl, apiKey, 'DELETE', `/models/${created.body.id}`)).toMatchObject({ status: 200 });
    expect((await keyApi(info.apiUrl, apiKey, 'GET', '/models')).body.items).toEqual([]);
  }, 60_000);
});

describe('a saved model at work', () => {
  it('makes an image: the port gets its description, portrait and seed, and History names it', async () => {
    const user = await createUser(info);
    const before = fake.runs.length;
    const item = await addClothingItem(info.apiUrl, user, await productJpeg());
    const imageKey = await uploadPortrait(user);
    const model = (await create(user, { name: 'Maya', description: MAYA, imageKey, rightsConfirmed: true })).body;

    const started = await api(info.apiUrl, 'POST', '/generate-ai-image', { user, body: { clothingItemId: item.id, modelId: model.id, imageSize: '1k' }, headers: key() });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const generation = await settled(user, `/generations/${started.body.generationId}`, (body) => body.status !== 'processing');
    expect(generation).toMatchObject({ status: 'complete', model: { id: model.id, name: 'Maya' }, params: { prompt: MAYA, modelId: model.id } });

    const sent = runsFor(MAYA, before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.inputs.seed).toBe(model.seed);
    const [prefix, base64] = String(sent[0]!.inputs.face_reference).split(',');
    expect(prefix).toBe('data:image/jpeg;base64');
    expect(Buffer.from(base64!, 'base64').equals(await (await fetch(model.portrait_url)).arrayBuffer().then(Buffer.from))).toBe(true);

    // A described model has the seed its words give and no model reference in History.
    const described = await api(info.apiUrl, 'POST', '/generate-ai-image', { user, body: { clothingItemId: item.id, prompt: 'young female model', imageSize: '1k' }, headers: key() });
    const row = await settled(user, `/generations/${described.body.generationId}`, (body) => body.status !== 'processing');
    expect(row.model).toBeNull();
    // Without a model and without words, the specification's message.
    expect(await api(info.apiUrl, 'POST', '/generate-ai-image', { user, body: { clothingItemId: item.id }, headers: key() })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Please enter a model description') },
    });
  }, 180_000);

  it('"Save this model" from a finished picture keeps its person: the same seed, the picture as portrait, no confirmation', async () => {
    const user = await createUser(info);
    const item = await addClothingItem(info.apiUrl, user, await productJpeg());
    const resultId = await onModelPhoto(info.apiUrl, user, item.id);
    const sent = runsFor('young female model').at(-1)!;
    expect(sent.inputs.face_reference).toBeUndefined();
    const saved = await create(user, { name: 'From my result', description: 'young female model', generationId: resultId });
    expect(saved).toMatchObject({ status: 201, body: { portrait_source: 'generation', portrait_generation_id: resultId, rights_confirmed_at: null, seed: sent.inputs.seed } });
    expect((await fetch(saved.body.preview_url)).status).toBe(200);
  }, 180_000);

  it('runs a whole batch with one model: every photo request at the port carries the same model and seed', async () => {
    const user = await createUser(info);
    await api(info.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 170 }, headers: key() });
    const shirt = await addClothingItem(info.apiUrl, user, await productJpeg(), 'Shirt');
    const tee = await addClothingItem(info.apiUrl, user, await productJpeg(), 'Tee');
    const before = fake.runs.length;
    const model = (await create(user, { name: 'Leo', description: 'man in his thirties, short dark hair, athletic build' })).body;
    const body = {
      modelId: model.id,
      imageSize: '1k',
      batchItems: [
        { clothingItemId: shirt.id, cameraAngles: ['Front', 'Back', 'Side'] },
        { clothingItemId: tee.id, prompt: 'ignored: the saved model is used', cameraAngles: ['Front', 'Full Body'] },
      ],
    };
    const started = await api(info.apiUrl, 'POST', '/generate-batch', { user, body, headers: key() });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const batch = await settled(user, `/batches/${started.body.batchId}`, (answer) => answer.status === 'complete', 240_000);
    expect(batch.progress).toEqual({ done: 5, failed: 0, total: 5 });
    expect(batch.model).toEqual({ id: model.id, name: 'Leo', portrait_url: null });
    expect(batch.photos.map((photo: { generation: { model: unknown } }) => photo.generation.model)).toEqual(Array(5).fill({ id: model.id, name: 'Leo' }));

    const sent = runsFor(model.description, before);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((run) => run.inputs.seed))).toEqual(new Set([model.seed]));
    // The second entry's own words are not sent: the saved model is.
    expect(fake.runs.filter((run) => String(run.inputs.prompt).includes('ignored'))).toEqual([]);
    // The model's card now shows the first picture made with it.
    const [card] = await list(user);
    expect(new URL(card!.preview_url!).pathname).toContain(`/${info.env.BUCKET_RESULTS}/${user.sub}/`);
  }, 300_000);
});

describe('a batch of entries with their own models', () => {
  it("keeps each entry's model: its photos, their history rows and the entry carry it, and the port gets it", async () => {
    const user = await createUser(info);
    const tee = await addClothingItem(info.apiUrl, user, await productJpeg(), 'Blue Logo Tee');
    const necklace = await addClothingItem(info.apiUrl, user, await productJpeg(), 'Gold Bead Necklace');
    const before = fake.runs.length;
    const maya = (await create(user, { name: 'Maya', description: MAYA })).body;
    const leo = (await create(user, { name: 'Leo', description: 'man in his thirties, short dark hair, athletic build' })).body;
    const body = {
      imageSize: '1k',
      batchItems: [
        { clothingItemId: tee.id, modelId: maya.id, cameraAngles: ['Front'] },
        { clothingItemId: necklace.id, modelId: leo.id, productType: 'jewelry', cameraAngles: ['Front'] },
      ],
    };
    const started = await api(info.apiUrl, 'POST', '/generate-batch', { user, body, headers: key() });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const batch = await settled(user, `/batches/${started.body.batchId}`, (answer) => answer.status === 'complete', 240_000);
    expect(batch.entries.map((entry: { clothingItemName: string; prompt: string; model: unknown }) => [entry.clothingItemName, entry.prompt, entry.model])).toEqual([
      ['Blue Logo Tee', MAYA, { id: maya.id, name: 'Maya' }],
      ['Gold Bead Necklace', leo.description, { id: leo.id, name: 'Leo' }],
    ]);
    // Two models: the batch has no one model.
    expect(batch.model).toBeNull();
    expect(batch.photos.map((photo: { clothingItemName: string; generation: { model: { name: string } } }) => [photo.clothingItemName, photo.generation.model.name])).toEqual([
      ['Blue Logo Tee', 'Maya'],
      ['Gold Bead Necklace', 'Leo'],
    ]);
    expect(runsFor(MAYA, before).map((run) => run.inputs.seed)).toEqual([maya.seed]);
    expect(runsFor(leo.description, before).map((run) => run.inputs.seed)).toEqual([leo.seed]);
  }, 300_000);
});

describe('the account', () => {
  it('"Download my data" includes the saved models and their uploaded portraits; deleting the account deletes them', async () => {
    const user = await createUser(info);
    const imageKey = await uploadPortrait(user);
    const model = (await create(user, { name: 'Maya', description: MAYA, imageKey, rightsConfirmed: true })).body;

    const entries = readZip((await exportAndDownload(info.apiUrl, user)).zip);
    const models = JSON.parse(entries.get('models.json')!.toString('utf8'));
    expect(models).toEqual([expect.objectContaining({ id: model.id, name: 'Maya', description: MAYA, seed: model.seed, rights_confirmed_at: model.rights_confirmed_at })]);
    expect([...entries.keys()].filter((name) => name.startsWith('models/'))).toHaveLength(1);

    expect((await api(info.apiUrl, 'POST', '/account/delete', { user, body: { confirmEmail: user.email } })).status).toBe(202);
    const modelsRepo = await import('../../lambdas/data/models-repo.js');
    const s3 = twinS3(info);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const left = [...(await modelsRepo.listModels(user.sub)), ...(await listKeys(s3, info.env.BUCKET_CLOTHING_IMAGES!, `${user.sub}/models/`))];
      if (left.length === 0) break;
      if (Date.now() > deadline) throw new Error(`still there: ${JSON.stringify(left)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 180_000);
});
