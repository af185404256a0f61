// One portrait, one model (issue 40 item 2), over HTTP on the shared twin: an uploaded portrait's key is taken by one
// model only, even when two requests ask at once; deleting a model never removes a file another model still names
// (models saved before the mark could share one); a model whose portrait file is gone says so, is refused for photos
// before any charge, and takes a new portrait through PATCH. A portrait shows one person (issue 42 item 6): a photo
// with no face or with two is refused with its code before any model is saved, and its upload is deleted.
import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { productJpeg, twinS3, uploadFile } from '../support/uploads.js';
import { createUser, type TestUser } from '../support/users.js';
import { noPerson, portraitPhoto, twoPeople } from '../fixtures/faces.js';
import { MODEL_MESSAGES } from '../../lambdas/contracts/models.js';

const twin = inject('twin');
const s3 = twinS3(twin);
const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: twin.env.AWS_ENDPOINT_URL_DYNAMODB, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS }),
);

/** A photograph of one person (a portrait must show exactly one face), tinted by `shade`. */
const portrait = (shade = 60) => portraitPhoto(shade);
const uploadPortrait = async (user: TestUser, shade?: number) => uploadFile(twin, user, '/models/upload-url', await portrait(shade), 'maya.jpg');
const create = (user: TestUser, name: string, imageKey: string) =>
  api(twin.apiUrl, 'POST', '/models', { user, body: { name, description: 'woman, curly black hair', imageKey, rightsConfirmed: true } });
const models = async (user: TestUser) => (await api(twin.apiUrl, 'GET', '/models', { user })).body.items as any[];
const fetchStatus = async (url: string) => {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
};

describe('one portrait, one model', () => {
  it('refuses a portrait photo with no face (PORTRAIT_NO_FACE) or two faces (PORTRAIT_SEVERAL_FACES) before saving anything', async () => {
    const user = await createUser(twin);
    const empty = await uploadFile(twin, user, '/models/upload-url', await noPerson(), 'coffee.jpg');
    const none = await create(user, 'Nobody', empty);
    expect(none).toMatchObject({ status: 400, body: { code: 'PORTRAIT_NO_FACE', error: MODEL_MESSAGES.portraitNoFace } });
    const pair = await uploadFile(twin, user, '/models/upload-url', await twoPeople(), 'pair.jpg');
    const two = await create(user, 'Pair', pair);
    expect(two).toMatchObject({ status: 400, body: { code: 'PORTRAIT_SEVERAL_FACES', error: MODEL_MESSAGES.portraitSeveralFaces(2) } });
    expect(await models(user)).toEqual([]);
    // The refused uploads are gone: they can be no model's portrait.
    for (const key of [empty, pair]) {
      await expect(s3.send(new GetObjectCommand({ Bucket: twin.env.BUCKET_CLOTHING_IMAGES!, Key: key }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    }
    // A photograph of one person is taken, by POST and by PATCH.
    const saved = await create(user, 'Maya', await uploadPortrait(user));
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const replaced = await api(twin.apiUrl, 'PATCH', `/models/${saved.body.id}`, {
      user,
      body: { imageKey: await uploadFile(twin, user, '/models/upload-url', await twoPeople(), 'pair.jpg'), rightsConfirmed: true },
    });
    expect(replaced).toMatchObject({ status: 400, body: { code: 'PORTRAIT_SEVERAL_FACES' } });
  });

  it('an uploaded portrait is taken by one model only: a second POST /models with its key is 409 PORTRAIT_IN_USE, also when both ask at once', async () => {
    const user = await createUser(twin);
    const key = await uploadPortrait(user);
    const first = await create(user, 'Maya', key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await create(user, 'Maya twin', key);
    expect(second).toMatchObject({ status: 409, body: { code: 'PORTRAIT_IN_USE' } });

    const raced = await uploadPortrait(user, 90);
    const answers = await Promise.all([create(user, 'A', raced), create(user, 'B', raced), create(user, 'C', raced)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);

    // Deleting the first model removes its file; nothing else named it.
    expect((await api(twin.apiUrl, 'DELETE', `/models/${first.body.id}`, { user })).status).toBe(200);
    expect(await fetchStatus(first.body.portrait_url)).toBe(404);
    // The key stays taken: a deleted model's upload can't be handed to another model either.
    expect((await create(user, 'Late', key)).body.code).toBe('PORTRAIT_IN_USE');
    expect((await models(user)).map((model) => model.name)).toHaveLength(1);
  });

  it('deleting a model never removes a file another model names (two models saved with one key before the mark)', async () => {
    const user = await createUser(twin);
    const key = await uploadPortrait(user);
    const first = await create(user, 'Maya', key);
    expect(first.status).toBe(201);
    // A model written as the old code wrote it: the same uploaded key, no mark of its own.
    const { Item } = await dynamo.send(new GetCommand({ TableName: twin.env.TABLE_MODELS!, Key: { user_id: user.sub, id: first.body.id } }));
    const copyId = `mdl_${Date.now()}${randomUUID().slice(0, 8)}`;
    await dynamo.send(new PutCommand({ TableName: twin.env.TABLE_MODELS!, Item: { ...Item, id: copyId, name: 'Maya copy' } }));

    expect((await api(twin.apiUrl, 'DELETE', `/models/${first.body.id}`, { user })).status).toBe(200);
    const [copy] = await models(user);
    expect(copy).toMatchObject({ id: copyId, portrait_missing: false });
    expect(await fetchStatus(copy.portrait_url)).toBe(200);
  });

  it('a model whose portrait is gone says so, is refused for photos before any charge, and takes a new portrait through PATCH', async () => {
    const user = await createUser(twin);
    const key = await uploadPortrait(user);
    const model = (await create(user, 'Maya', key)).body;
    await s3.send(new DeleteObjectCommand({ Bucket: twin.env.BUCKET_CLOTHING_IMAGES!, Key: key }));

    const [listed] = await models(user);
    expect(listed).toMatchObject({ id: model.id, portrait_missing: true, portrait_url: null, portrait_source: 'upload' });

    const item = await addClothingItem(twin.apiUrl, user, await productJpeg());
    const before = (await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits;
    const refused = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { clothingItemId: item.id, modelId: model.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'PORTRAIT_MISSING' } });
    expect(refused.body.error).toMatch(/portrait is missing/);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(before);

    const fresh = await uploadPortrait(user, 30);
    const unconfirmed = await api(twin.apiUrl, 'PATCH', `/models/${model.id}`, { user, body: { imageKey: fresh } });
    expect(unconfirmed.status).toBe(400);
    const repaired = await api(twin.apiUrl, 'PATCH', `/models/${model.id}`, { user, body: { imageKey: fresh, rightsConfirmed: true } });
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body).toMatchObject({ id: model.id, seed: model.seed, portrait_missing: false, portrait_source: 'upload' });
    expect(await fetchStatus(repaired.body.portrait_url)).toBe(200);
    // The new upload is this model's now.
    expect((await create(user, 'Other', fresh)).body.code).toBe('PORTRAIT_IN_USE');
    const made = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { clothingItemId: item.id, modelId: model.id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  });
});
