// The public API on the twin: keys made through the Cognito-only routes, the same handlers under /v1 behind the
// API-key authorizer (called by the local gateway as API Gateway calls it), per-key rate limits, idempotency.
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { MAX_ACTIVE_API_KEYS } from '../../lambdas/contracts/api-keys.js';
import { SIGNUP_CREDITS, USER_LIMITS } from '../../lambdas/contracts/catalog.js';
import { publicApiRoutes } from '../../lambdas/routes.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { answerChecker, type OpenApiDocument } from '../support/openapi.js';
import { createUser } from '../support/users.js';
import { portraitPhoto } from '../fixtures/faces.js';

const twin = inject('twin');

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A clothing item made through /v1 exactly as the quick start does: upload URL, PUT, register. */
async function addItemWithKey(key: string): Promise<{ id: string }> {
  const photo = await tshirtPhoto();
  const upload = await keyApi(twin.apiUrl, key, 'POST', '/clothing-items/upload-url', {
    body: { fileName: 'shirt.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
  });
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const put = await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo });
  await put.arrayBuffer();
  expect(put.status).toBe(200);
  const item = await keyApi(twin.apiUrl, key, 'POST', '/clothing-items', { body: { imageKey: upload.body.imageKey, name: 'Red T-shirt' } });
  expect(item.status, JSON.stringify(item.body)).toBe(201);
  return item.body;
}

const generate = (key: string, body: unknown, idempotencyKey = randomUUID()) =>
  keyApi(twin.apiUrl, key, 'POST', '/generate-ai-image', { body, headers: { 'idempotency-key': idempotencyKey } });

describe('API keys', () => {
  it('are created (secret shown once), used on /v1/profile, listed without the secret, revoked, then refused with 401 at once, whatever the authorizer cached', async () => {
    const user = await createUser(twin);
    const created = await api(twin.apiUrl, 'POST', '/api-keys', { user, body: { name: 'Shopify sync' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ml_[0-9A-Za-z]{32}$/);
    expect(created.body).toMatchObject({ name: 'Shopify sync', status: 'active', last_used_at: null, last4: created.body.key.slice(-4) });
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);

    const profile = await keyApi(twin.apiUrl, created.body.key, 'GET', '/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: user.sub, current_credits: SIGNUP_CREDITS });
    // Bearer works too.
    const bearer = await fetch(`${twin.apiUrl}/v1/profile`, { headers: { 'x-api-key': created.body.key, authorization: `Bearer ${created.body.key}` } });
    expect(bearer.status).toBe(200);

    const listed = await api(twin.apiUrl, 'GET', '/api-keys', { user });
    expect(listed.status).toBe(200);
    expect(listed.body.keys).toHaveLength(1);
    expect(listed.body.keys[0]).toMatchObject({ id: created.body.id, status: 'active' });
    expect(listed.body.keys[0].last_used_at).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    // A key can't manage keys: the key routes exist only for a signed-in user.
    expect((await keyApi(twin.apiUrl, created.body.key, 'GET', '/api-keys')).status).toBe(404);
    expect((await api(twin.apiUrl, 'GET', '/api-keys', { headers: { 'x-api-key': created.body.key } })).status).toBe(401);

    const item = await addItemWithKey(created.body.key);
    // The authorizer's answer for this key is cached (30 s) and still says the key is good: revocation wins anyway,
    // from the moment the revoke has answered. A revoked key reads nothing and spends nothing.
    const revoked = await api(twin.apiUrl, 'DELETE', `/api-keys/${created.body.id}`, { user });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked' });
    expect(await keyApi(twin.apiUrl, created.body.key, 'GET', '/profile')).toMatchObject({ status: 401, body: { code: 'API_KEY_REVOKED' } });
    expect(await keyApi(twin.apiUrl, created.body.key, 'GET', '/clothing-items')).toMatchObject({ status: 401, body: { code: 'API_KEY_REVOKED' } });
    const spent = await generate(created.body.key, { clothingItemId: item.id, productType: 'clothing', prompt: 'young female model' });
    expect(spent).toMatchObject({ status: 401, body: { code: 'API_KEY_REVOKED' } });
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user })).body.items).toEqual([]);
    expect((await api(twin.apiUrl, 'DELETE', `/api-keys/${created.body.id}`, { user })).status).toBe(200);
  });

  it('refuses missing, malformed and unknown keys with 401 and stable codes', async () => {
    expect((await keyApi(twin.apiUrl, undefined, 'GET', '/profile')).status).toBe(401);
    expect(await keyApi(twin.apiUrl, 'ml_short', 'GET', '/profile')).toMatchObject({ status: 401, body: { code: 'API_KEY_MALFORMED' } });
    expect(await keyApi(twin.apiUrl, `ml_${'A'.repeat(32)}`, 'GET', '/profile')).toMatchObject({ status: 401, body: { code: 'API_KEY_INVALID' } });
    // A Cognito ID token is not a key.
    const user = await createUser(twin);
    expect(await keyApi(twin.apiUrl, user.idToken, 'GET', '/profile')).toMatchObject({ status: 401, body: { code: 'API_KEY_MALFORMED' } });
  });

  it(`allows at most ${MAX_ACTIVE_API_KEYS} active keys per user, and a revoked one frees its place`, async () => {
    const user = await createUser(twin);
    const keys = await Promise.all(Array.from({ length: MAX_ACTIVE_API_KEYS }, (_, index) => createApiKey(twin.apiUrl, user, `key ${index}`)));
    const eleventh = await api(twin.apiUrl, 'POST', '/api-keys', { user, body: { name: 'one too many' } });
    expect(eleventh).toMatchObject({ status: 409, body: { code: 'API_KEY_LIMIT_REACHED' } });
    expect(eleventh.body.error).toContain('Revoke one');
    expect((await api(twin.apiUrl, 'DELETE', `/api-keys/${keys[0]!.id}`, { user })).status).toBe(200);
    expect((await api(twin.apiUrl, 'POST', '/api-keys', { user, body: { name: 'replacement' } })).status).toBe(201);
    expect((await api(twin.apiUrl, 'POST', '/api-keys', { user, body: { name: '   ' } })).status).toBe(400);
  });
});

describe('/v1 routes', () => {
  it('every route the table marks public answers a key caller (no 401, no 5xx) as the served OpenAPI document describes, and the quick start flow generates a photo', async () => {
    const checkAnswer = answerChecker((await (await fetch(`${twin.apiUrl}/v1/openapi.json`)).json()) as OpenApiDocument);
    const mismatches: string[] = [];
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const item = await addItemWithKey(key);
    const started = await generate(key, { clothingItemId: item.id, productType: 'clothing', prompt: 'young female model' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const generation = await waitFor(
      () => keyApi(twin.apiUrl, key, 'GET', `/generations/${started.body.generationId}`),
      (answer) => answer.body?.status !== 'processing',
    );
    expect(generation.body).toMatchObject({ id: started.body.generationId, status: 'complete' });
    const image = await fetch(generation.body.result_url);
    await image.arrayBuffer();
    expect(image.status).toBe(200);

    const seen = new Set<string>();
    const call = async (method: string, path: string, body?: unknown, spend = false) => {
      const answer = await keyApi(twin.apiUrl, key, method, path, { body, headers: spend ? { 'idempotency-key': randomUUID() } : {} });
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).not.toBe(401);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      const template = path
        .replace(/\?.*$/, '')
        .replace(/\/[^/]+(?=\/cancel$|\/download$|\/cutout$)/, '/{id}')
        .replace(/\/shops\/[^/]+\/products$/, '/shops/{shop}/products')
        .replace(/(generations|clothing-items|batches|models|publications)\/(?!upload-url)[^/{]+$/, '$1/{id}');
      seen.add(`${method} ${template}`);
      mismatches.push(...checkAnswer(method, `/v1${template}`, answer.status, answer.body));
      return answer;
    };
    await call('GET', '/profile');
    await call('GET', '/credit-transactions');
    await call('GET', '/clothing-items');
    await call('GET', `/clothing-items/${item.id}`);
    const photo = await tshirtPhoto();
    const upload = await call('POST', '/clothing-items/upload-url', { fileName: 'shirt.jpg', contentType: 'image/jpeg', sizeBytes: photo.length });
    await (await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo })).arrayBuffer();
    const source = await call('POST', '/generation-uploads/upload-url', { fileName: 'shirt.jpg', contentType: 'image/jpeg', sizeBytes: photo.length });
    expect(source.status, JSON.stringify(source.body)).toBe(200);
    await call('POST', '/clothing-items', { imageKey: 'not-mine/clothing/x.png', name: 'x' });
    expect((await call('POST', '/clothing-items', { imageKey: upload.body.imageKey, name: 'Blue T-shirt' })).status).toBe(201);
    const face = await portraitPhoto();
    const portrait = await call('POST', '/models/upload-url', { fileName: 'maya.jpg', contentType: 'image/jpeg', sizeBytes: face.length });
    await (await fetch(portrait.body.uploadUrl, { method: 'PUT', headers: portrait.body.headers, body: face })).arrayBuffer();
    const model = await call('POST', '/models', { name: 'Maya', description: 'woman, curly black hair', imageKey: portrait.body.imageKey, rightsConfirmed: true });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    await call('GET', '/models');
    await call('PATCH', `/models/${model.body.id}`, { name: 'Maya (spring)' });
    await call('POST', '/generate-ai-image', { clothingItemId: item.id, productType: 'clothing', prompt: 'model' }, true);
    await call('POST', '/generate-ai-image', { clothingItemId: item.id, modelId: model.body.id }, true);
    await call('POST', '/edit-ai-image', { imageUrl: started.body.generationId, editPrompt: 'background white' }, true);
    await call('POST', '/upscale-ai-image', { imageUrl: started.body.generationId, targetResolution: '2k' }, true);
    const packshot = await call('POST', '/generate-packshot', { clothingItemId: item.id, marketplace: 'amazon' }, true);
    const packshotId = packshot.body?.generationId ?? 'missing';
    await waitFor(
      () => keyApi(twin.apiUrl, key, 'GET', `/generations/${packshotId}`),
      (answer) => answer.body?.status !== 'processing',
    );
    // The cutout brush: the packshot's photo and mask, and the packshot rendered again from that very mask.
    const cutout = await call('GET', `/generations/${packshotId}/cutout`);
    expect(cutout.status, JSON.stringify(cutout.body)).toBe(200);
    const mask = Buffer.from(await (await fetch(cutout.body.maskUrl)).arrayBuffer()).toString('base64');
    await call('PUT', `/generations/${packshotId}/cutout`, { mask }, true);
    await call('GET', `/video-motion?prompt=${encodeURIComponent('the model turns around slowly')}`);
    // Shopify, for an account that connected no shop: nothing listed, the demo shop's products and a publication refused.
    await call('GET', '/shops');
    await call('GET', '/shops/modelloop-demo.myshopify.com/products?query=tee');
    await call('POST', '/publications', { shop: 'modelloop-demo.myshopify.com', files: [{ generationId: started.body.generationId, productId: 'gid://shopify/Product/1001' }] }, true);
    await call('GET', '/publications');
    await call('GET', '/publications/pub_none');
    await call('GET', '/generations');
    await call('GET', `/generations/${started.body.generationId}`);
    const video = await call('POST', '/generate-video', { imageBase64: (await tshirtPhoto(300, 350)).toString('base64'), prompt: 'Pivot', duration: 5, aspect_ratio: '9:16', output_count: 1 }, true);
    const jobId = video.body?.jobId ?? 'missing';
    await call('POST', '/poll-operation', { jobId, operationName: video.body?.operationName ?? 'x' });
    await call('POST', '/get-video-url', { jobId });
    await call('GET', '/jobs');
    await call('POST', `/jobs/${jobId}/cancel`);
    const batch = await call('POST', '/generate-batch', { batchItems: [{ clothingItemId: item.id, prompt: 'model', cameraAngles: ['Front'], backdrop: 'white' }], imageSize: '1k' }, true);
    await call('GET', '/batches');
    await call('GET', `/batches/${batch.body?.batchId ?? 'missing'}`);
    await call('POST', `/batches/${batch.body?.batchId ?? 'missing'}/download`);
    await call('POST', '/generate-batch', { batchItems: [{ clothingItemId: item.id, cameraAngles: ['Front'] }], imageSize: '1k', modelId: model.body.id }, true);
    await call('DELETE', `/models/${model.body.id}`);
    expect([...seen].sort()).toEqual(publicApiRoutes().map((route) => `${route.method} ${route.path}`).sort());
    expect(mismatches).toEqual([]);

    // Routes the API doesn't serve aren't there.
    expect((await keyApi(twin.apiUrl, key, 'POST', '/credits/purchase', { body: { credits: 100 } })).status).toBe(404);
    expect((await keyApi(twin.apiUrl, key, 'DELETE', `/clothing-items/${item.id}`)).status).toBe(404);
  });

  it("a key of A never sees or spends B's data", async () => {
    const [a, b] = await Promise.all([createUser(twin), createUser(twin)]);
    const [{ key: keyA }, { key: keyB }] = await Promise.all([createApiKey(twin.apiUrl, a), createApiKey(twin.apiUrl, b)]);
    const itemB = await addItemWithKey(keyB);
    const generationB = await generate(keyB, { clothingItemId: itemB.id, productType: 'clothing', prompt: 'model' });
    expect(generationB.status).toBe(200);

    expect((await keyApi(twin.apiUrl, keyA, 'GET', `/clothing-items/${itemB.id}`)).status).toBe(404);
    expect((await keyApi(twin.apiUrl, keyA, 'GET', `/generations/${generationB.body.generationId}`)).status).toBe(404);
    expect((await keyApi(twin.apiUrl, keyA, 'GET', '/clothing-items')).body.items).toEqual([]);
    const spendOnB = await generate(keyA, { clothingItemId: itemB.id, productType: 'clothing', prompt: 'model' });
    expect([403, 404]).toContain(spendOnB.status);
    expect((await keyApi(twin.apiUrl, keyA, 'GET', '/profile')).body).toMatchObject({ id: a.sub, current_credits: SIGNUP_CREDITS });
    expect((await keyApi(twin.apiUrl, keyB, 'GET', '/profile')).body).toMatchObject({ id: b.sub, current_credits: SIGNUP_CREDITS - 1 });
  });

  it('limits each key: past its rate, 429 with Retry-After and never a 5xx; another key of the same user is not affected', async () => {
    const user = await createUser(twin);
    const [{ key }, { key: other }] = await Promise.all([createApiKey(twin.apiUrl, user, 'busy'), createApiKey(twin.apiUrl, user, 'quiet')]);
    // Bursts of 60 until one is refused. However slow the machine, no window of 2 s lets more than 20 through: the
    // accepted calls are at most 20 per window the burst touched.
    const { limit, windowSeconds } = USER_LIMITS.rates.apiKey;
    let answers: Awaited<ReturnType<typeof keyApi<{ code?: string }>>>[] = [];
    for (let burst = 0; burst < 5 && !answers.some((answer) => answer.status === 429); burst++) {
      const started = Date.now();
      answers = await Promise.all(Array.from({ length: 60 }, () => keyApi<{ code?: string }>(twin.apiUrl, key, 'GET', '/profile')));
      const windowsTouched = Math.ceil((Date.now() - started) / (windowSeconds * 1000)) + 1;
      expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(limit * windowsTouched);
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 429), statuses.join(',')).toBe(true);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.body.code).toBe('RATE_LIMITED');
    expect((await keyApi(twin.apiUrl, other, 'GET', '/profile')).status).toBe(200);
  });

  it('keeps idempotency through /v1: a replay answers the same generation, another body or another route is 409', async () => {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const item = await addItemWithKey(key);
    const idem = randomUUID();
    const body = { clothingItemId: item.id, productType: 'clothing', prompt: 'young female model' };
    const first = await generate(key, body, idem);
    const replay = await generate(key, body, idem);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body.generationId).toBe(first.body.generationId);
    const otherBody = await generate(key, { ...body, prompt: 'older male model' }, idem);
    expect(otherBody).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    const noKey = await keyApi(twin.apiUrl, key, 'POST', '/generate-ai-image', { body });
    expect(noKey).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_REQUIRED' } });

    // The same Idempotency-Key on a Cognito route and then on another /v1 route is one key of one user: 409.
    const crossKey = randomUUID();
    const viaCognito = await api(twin.apiUrl, 'POST', '/generate-ai-image', { user, body, headers: { 'idempotency-key': crossKey } });
    expect(viaCognito.status).toBe(200);
    const viaKey = await keyApi(twin.apiUrl, key, 'POST', '/generate-video', {
      body: { imageBase64: (await tshirtPhoto(300, 350)).toString('base64'), prompt: 'Pivot', duration: 5, aspect_ratio: '9:16', output_count: 1 },
      headers: { 'idempotency-key': crossKey },
    });
    expect(viaKey).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    const charged = (await keyApi(twin.apiUrl, key, 'GET', '/profile')).body.current_credits;
    expect(charged).toBe(SIGNUP_CREDITS - 2);
  });

  it('serves the OpenAPI document publicly at /v1/openapi.json', async () => {
    const answer = await fetch(`${twin.apiUrl}/v1/openapi.json`);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/v1/generate-ai-image');
  });
});
