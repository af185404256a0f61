// The clothing library over HTTP against the local twin: presigned uploads to s3rver, registration that checks the
// stored bytes, DynamoDB Local for the items, and every route tried across users.
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MB } from '../../lambdas/contracts/catalog.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const clothingRepo = await import('../../lambdas/data/clothing-repo.js');

const bucket = twin.env.BUCKET_CLOTHING_IMAGES!;
const s3 = new S3Client({
  endpoint: twin.env.AWS_ENDPOINT_URL_S3,
  region: twin.env.AWS_REGION,
  credentials: LOCAL_CREDENTIALS,
  forcePathStyle: true,
});

const picture = (width = 300, height = 400) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 110 } } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><rect x="40" y="40" width="120" height="200" fill="#0f766e"/></svg>`) },
  ]);
const png = () => picture().png().toBuffer();
const jpeg = () => picture().jpeg().toBuffer();

interface Upload {
  uploadUrl: string;
  headers: Record<string, string>;
  imageKey: string;
  expiresAt: string;
}

const requestUpload = (user: TestUser, file: { fileName: string; contentType: string; sizeBytes: number }) =>
  api<Upload>(twin.apiUrl, 'POST', '/clothing-items/upload-url', { user, body: file });

async function put(upload: Upload, bytes: Buffer): Promise<number> {
  const response = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: bytes });
  await response.arrayBuffer();
  return response.status;
}

/** Asks for an upload URL declaring `declared`, and PUTs `bytes` to it (which may not be what was declared). */
async function upload(user: TestUser, bytes: Buffer, declared: { fileName: string; contentType: string; sizeBytes?: number }): Promise<string> {
  const answer = await requestUpload(user, { sizeBytes: bytes.length, ...declared });
  expect(answer.status).toBe(200);
  expect(await put(answer.body, bytes)).toBe(200);
  return answer.body.imageKey;
}

/**
 * Bytes of another length than declared: S3 refuses them at the presigned PUT (the length is signed), so nothing is
 * stored; then they are written with the twin's own credentials, as if S3's check had been got past, for the
 * registration's own check of the stored bytes to see.
 */
async function storeAroundTheSignature(user: TestUser, bytes: Buffer, declared: { fileName: string; contentType: string; sizeBytes: number }): Promise<string> {
  const answer = await requestUpload(user, declared);
  expect(answer.status).toBe(200);
  const refused = await fetch(answer.body.uploadUrl, { method: 'PUT', headers: answer.body.headers, body: bytes });
  expect(refused.status).toBe(403);
  expect(await refused.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  expect(await storedKeys(user)).toEqual([]);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: answer.body.imageKey, Body: bytes, ContentType: declared.contentType }));
  return answer.body.imageKey;
}

const register = (user: TestUser, body: Record<string, unknown>) => api(twin.apiUrl, 'POST', '/clothing-items', { user, body });

async function addItem(user: TestUser, name = 'Linen shirt', bytes?: Buffer) {
  const imageKey = await upload(user, bytes ?? (await png()), { fileName: 'shirt.png', contentType: 'image/png' });
  const answer = await register(user, { imageKey, name });
  expect(answer.status).toBe(201);
  return answer.body;
}

const list = async (user: TestUser, query = '') => {
  const answer = await api(twin.apiUrl, 'GET', `/clothing-items${query}`, { user });
  expect(answer.status).toBe(200);
  return answer.body.items as { id: string; is_deleted: boolean; name: string; generations_count: number }[];
};

/** The user's stored photos (uploads and originals), not the thumbnails registration makes beside them. */
async function storedKeys(user: TestUser): Promise<string[]> {
  const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${user.sub}/` }));
  return Contents.map((object) => object.Key!).filter((key) => !key.startsWith(`${user.sub}/thumbnails/`));
}

/** After a refused registration: no file in the user's folder and no item in their library. */
async function expectNothingStored(user: TestUser): Promise<void> {
  expect(await storedKeys(user)).toEqual([]);
  expect(await list(user)).toEqual([]);
  expect(await clothingRepo.listItems(user.sub, { activeOnly: false })).toEqual([]);
}

describe('upload and register', () => {
  it('signs a short-lived PUT for a server-chosen key in the caller folder, and registers the stored image', async () => {
    const user = await createUser(twin);
    const bytes = await png();
    const answer = await requestUpload(user, { fileName: `../${'x'.repeat(20)}/my dress.png`, contentType: 'image/png', sizeBytes: bytes.length });
    expect(answer.status).toBe(200);
    const { uploadUrl, headers, imageKey, expiresAt } = answer.body;
    expect(imageKey).toMatch(new RegExp(`^${user.sub}/\\d{13}-[0-9a-f]{16}\\.png$`));
    const url = new URL(uploadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'if-none-match', 'x-amz-tagging']),
    );
    expect(headers).toEqual({ 'content-type': 'image/png', 'if-none-match': '*', 'x-amz-tagging': 'upload=pending' });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    expect(await put(answer.body, bytes)).toBe(200);
    const created = await register(user, { imageKey, name: '  Red summer dress  ', description: 'Cotton, size M' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      user_id: user.sub,
      name: 'Red summer dress',
      description: 'Cotton, size M',
      image_url: imageKey,
      file_size_bytes: bytes.length,
      mime_type: 'image/png',
      is_deleted: false,
      generations_count: 0,
    });
    expect(Date.now() - Date.parse(created.body.created_at)).toBeLessThan(60_000);

    // The signed display URL serves the very bytes, for an hour, or for what is left of the signing session when that
    // is less: never below the half hour at which the session is renewed (lambdas/storage/signing-session.ts).
    const display = new URL(created.body.signed_url);
    const expires = Number(display.searchParams.get('X-Amz-Expires'));
    expect(expires).toBeLessThanOrEqual(3600);
    expect(expires).toBeGreaterThanOrEqual(1800);
    const image = await fetch(created.body.signed_url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(bytes)).toBe(true);

    const one = await api(twin.apiUrl, 'GET', `/clothing-items/${created.body.id}`, { user });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: created.body.id, name: 'Red summer dress', image_url: imageKey });
    expect((await list(user)).map((item) => item.id)).toEqual([created.body.id]);
    expect(await storedKeys(user)).toEqual([imageKey]);
  });

  it('stores a PNG named .jpg (and declared JPEG) as image/png, and serves it as image/png', async () => {
    const user = await createUser(twin);
    const bytes = await png();
    const imageKey = await upload(user, bytes, { fileName: 'photo.jpg', contentType: 'image/jpeg' });
    expect(imageKey).toMatch(/\.jpg$/);
    const created = await register(user, { imageKey, name: 'Disguised PNG' });
    expect(created.status).toBe(201);
    expect(created.body.mime_type).toBe('image/png');
    const image = await fetch(created.body.signed_url);
    expect(image.headers.get('content-type')).toBe('image/png');
    await image.arrayBuffer();
  });

  it('accepts JPEG and WebP, and takes the type from the extension when the browser declared none', async () => {
    const user = await createUser(twin);
    const jpegKey = await upload(user, await jpeg(), { fileName: 'kurta.jpeg', contentType: 'image/jpeg' });
    const webpKey = await upload(user, await picture().webp().toBuffer(), { fileName: 'saree.webp', contentType: '' });
    expect(webpKey).toMatch(/\.webp$/);
    expect((await register(user, { imageKey: jpegKey, name: 'Kurta' })).body.mime_type).toBe('image/jpeg');
    expect((await register(user, { imageKey: webpKey, name: 'Saree' })).body.mime_type).toBe('image/webp');
  });

  it('lists the newest first and keeps the description optional', async () => {
    const user = await createUser(twin);
    const first = await addItem(user, 'First');
    const second = await addItem(user, 'Second');
    expect(first.description).toBeNull();
    expect((await list(user)).map((item) => item.name)).toEqual(['Second', 'First']);
    expect(second.created_at >= first.created_at).toBe(true);
  });
});

describe('what the upload URL refuses, before anything is signed', () => {
  it("refuses other declared types with 'Please upload a JPEG, PNG, or WebP image'", async () => {
    const user = await createUser(twin);
    for (const file of [
      { fileName: 'anim.gif', contentType: 'image/gif', sizeBytes: 1000 },
      { fileName: 'notes.png', contentType: 'text/plain', sizeBytes: 1000 },
      { fileName: 'notes.txt', contentType: '', sizeBytes: 1000 },
    ]) {
      const answer = await requestUpload(user, file);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 'INVALID_FILE_TYPE', error: 'Please upload a JPEG, PNG, or WebP image' });
    }
  });

  it("refuses a declared size over 12 MB with 'File too large' and the actual size", async () => {
    const user = await createUser(twin);
    const answer = await requestUpload(user, { fileName: 'big.png', contentType: 'image/png', sizeBytes: 13 * MB });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 'FILE_TOO_LARGE', error: 'This file is 13 MB. The maximum size is 12 MB.' });
    const exact = await requestUpload(user, { fileName: 'max.png', contentType: 'image/png', sizeBytes: 12 * MB });
    expect(exact.status).toBe(200);
  });
});

describe('what registration refuses after the upload, whatever the client claimed: deleted, nothing stored', () => {
  it('a 13 MB file declared as 1 MB', async () => {
    const user = await createUser(twin);
    const bytes = Buffer.concat([await png(), Buffer.alloc(13 * MB)]);
    const imageKey = await storeAroundTheSignature(user, bytes, { fileName: 'small.png', contentType: 'image/png', sizeBytes: 1 * MB });
    expect(await storedKeys(user)).toEqual([imageKey]);
    const answer = await register(user, { imageKey, name: 'Too big' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('FILE_TOO_LARGE');
    expect(answer.body.error).toMatch(/^This file is 13(\.\d+)? MB\. The maximum size is 12 MB\.$/);
    await expectNothingStored(user);
  });

  it('a text file named .png', async () => {
    const user = await createUser(twin);
    const imageKey = await upload(user, Buffer.from('just some notes, not a picture\n'.repeat(20)), { fileName: 'notes.png', contentType: 'image/png' });
    const answer = await register(user, { imageKey, name: 'Notes' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: 'INVALID_FILE_TYPE', error: 'Please upload a JPEG, PNG, or WebP image' });
    await expectNothingStored(user);
  });

  it('a truncated JPEG and a truncated PNG', async () => {
    const user = await createUser(twin);
    for (const [bytes, fileName, contentType] of [
      [await jpeg(), 'cut.jpg', 'image/jpeg'],
      [await png(), 'cut.png', 'image/png'],
    ] as const) {
      const truncated = bytes.subarray(0, Math.floor(bytes.length * 0.6));
      const imageKey = await upload(user, truncated, { fileName, contentType });
      const answer = await register(user, { imageKey, name: 'Half a picture' });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_IMAGE');
      expect(answer.body.error).toContain('damaged or incomplete');
      await expectNothingStored(user);
    }
  });

  it('an empty file', async () => {
    const user = await createUser(twin);
    const imageKey = await storeAroundTheSignature(user, Buffer.alloc(0), { fileName: 'empty.png', contentType: 'image/png', sizeBytes: 10 });
    const answer = await register(user, { imageKey, name: 'Nothing' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('EMPTY_FILE');
    await expectNothingStored(user);
  });

  it('a key that was never uploaded, a malformed key, and a missing name', async () => {
    const user = await createUser(twin);
    const never = await requestUpload(user, { fileName: 'a.png', contentType: 'image/png', sizeBytes: 100 });
    const notUploaded = await register(user, { imageKey: never.body.imageKey, name: 'Ghost' });
    expect(notUploaded.status).toBe(404);
    expect(notUploaded.body.code).toBe('UPLOAD_NOT_FOUND');

    for (const imageKey of [`${user.sub}/../x.png`, `${user.sub}/shirt.png`, 'https://example.com/a.png', `${user.sub}/1732250000000-0123456789abcdef.gif`]) {
      const answer = await register(user, { imageKey, name: 'Odd key' });
      expect(answer.status, imageKey).toBe(400);
      expect(answer.body.code).toBe('INVALID_IMAGE_KEY');
    }

    const imageKey = await upload(user, await png(), { fileName: 'a.png', contentType: 'image/png' });
    for (const name of ['', '   ', undefined]) {
      const answer = await register(user, { imageKey, name });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 'VALIDATION_ERROR', error: 'Please enter a name' });
    }
    expect((await register(user, { imageKey, name: 'Named at last' })).status).toBe(201);
  });

  it('registers one upload once, and leaves the registered file alone', async () => {
    const user = await createUser(twin);
    const item = await addItem(user);
    const again = await register(user, { imageKey: item.image_url, name: 'Twice' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_REGISTERED');
    expect(await storedKeys(user)).toEqual([item.image_url]);
    // …and the one thumbnail its check made, beside it.
    const { Contents: thumbnails = [] } = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${user.sub}/thumbnails/` }));
    expect(thumbnails.map((object) => object.Key)).toEqual([`${user.sub}/thumbnails/${item.id}.webp`]);
    expect(await list(user)).toHaveLength(1);
  });
});

describe('rename, describe, soft delete', () => {
  it('renames and changes the description (blank clears it), refusing an empty name', async () => {
    const user = await createUser(twin);
    const item = await addItem(user, 'Blazer');
    const patch = (body: unknown) => api(twin.apiUrl, 'PATCH', `/clothing-items/${item.id}`, { user, body });

    const renamed = await patch({ name: '  Navy blazer ', description: 'Wool' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: item.id, name: 'Navy blazer', description: 'Wool', image_url: item.image_url });
    expect((await patch({ description: '   ' })).body).toMatchObject({ name: 'Navy blazer', description: null });
    expect((await patch({ description: null })).body.description).toBeNull();

    expect((await patch({ name: '  ' })).body).toEqual({ code: 'VALIDATION_ERROR', error: 'Please enter a name' });
    expect((await patch({})).status).toBe(400);
    expect((await api(twin.apiUrl, 'GET', `/clothing-items/${item.id}`, { user })).body.name).toBe('Navy blazer');
  });

  it('a soft-deleted item leaves the generation pickers (?active=true) but keeps its row, file and history', async () => {
    const user = await createUser(twin);
    const kept = await addItem(user, 'Kept');
    const gone = await addItem(user, 'Gone');
    await clothingRepo.incrementGenerationsCount(user.sub, gone.id);
    await clothingRepo.incrementGenerationsCount(user.sub, gone.id);

    const deleted = await api(twin.apiUrl, 'DELETE', `/clothing-items/${gone.id}`, { user });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: gone.id, is_deleted: true, generations_count: 2 });

    expect((await list(user, '?active=true')).map((item) => item.id)).toEqual([kept.id]);
    const all = await list(user);
    expect(all.map((item) => [item.id, item.is_deleted])).toEqual([
      [gone.id, true],
      [kept.id, false],
    ]);
    const one = await api(twin.apiUrl, 'GET', `/clothing-items/${gone.id}`, { user });
    expect(one.body).toMatchObject({ is_deleted: true, generations_count: 2 });
    expect((await fetch(one.body.signed_url)).status).toBe(200);
    expect((await storedKeys(user)).sort()).toEqual([kept.image_url, gone.image_url].sort());

    // The generation code's view: a deleted item cannot be used; deleting again changes nothing.
    expect(await clothingRepo.getActiveItem(user.sub, gone.id)).toBeUndefined();
    expect(await clothingRepo.getActiveItem(user.sub, kept.id)).toMatchObject({ id: kept.id });
    expect((await api(twin.apiUrl, 'PATCH', `/clothing-items/${gone.id}`, { user, body: { name: 'Back?' } })).status).toBe(404);
    expect((await api(twin.apiUrl, 'DELETE', `/clothing-items/${gone.id}`, { user })).status).toBe(200);
  });

  it('counts generations per item for the Most Used sort', async () => {
    const user = await createUser(twin);
    const item = await addItem(user);
    expect(await clothingRepo.incrementGenerationsCount(user.sub, item.id)).toMatchObject({ generations_count: 1 });
    expect(await clothingRepo.incrementGenerationsCount(user.sub, 'no-such-item')).toBeUndefined();
    expect((await list(user))[0]!.generations_count).toBe(1);
  });
});

describe("another user's items and files", () => {
  let owner: TestUser;
  let other: TestUser;
  let item: { id: string; image_url: string; name: string };
  let pendingKey: string;

  beforeAll(async () => {
    [owner, other] = await Promise.all([createUser(twin), createUser(twin)]);
    item = await addItem(owner, 'Owner shirt');
    pendingKey = await upload(owner, await png(), { fileName: 'pending.png', contentType: 'image/png' });
  });

  it('cannot read, sign, rename or delete them: every route answers 404 and changes nothing', async () => {
    const path = `/clothing-items/${item.id}`;
    const read = await api(twin.apiUrl, 'GET', path, { user: other });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ code: 'NOT_FOUND', error: 'This clothing item was not found.' });
    expect((await api(twin.apiUrl, 'PATCH', path, { user: other, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await api(twin.apiUrl, 'PATCH', path, { user: other, body: { description: 'x' } })).status).toBe(404);
    expect((await api(twin.apiUrl, 'DELETE', path, { user: other })).status).toBe(404);
    expect(await list(other)).toEqual([]);
    expect(await list(other, '?active=true')).toEqual([]);

    const mine = await api(twin.apiUrl, 'GET', path, { user: owner });
    expect(mine.body).toMatchObject({ name: 'Owner shirt', is_deleted: false });
    // B's attempts created nothing in B's partition either.
    expect(await clothingRepo.listItems(other.sub, { activeOnly: false })).toEqual([]);
  });

  it("cannot register the owner's object keys (registered or pending), which stay stored and the owner's", async () => {
    for (const imageKey of [item.image_url, pendingKey]) {
      const answer = await register(other, { imageKey, name: 'Stolen' });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ code: 'FORBIDDEN', error: 'This image does not belong to your account.' });
    }
    expect((await storedKeys(owner)).sort()).toEqual([item.image_url, pendingKey].sort());
    expect(await list(other)).toEqual([]);
    // The owner can still register the pending upload.
    expect((await register(owner, { imageKey: pendingKey, name: 'Pending shirt' })).status).toBe(201);
  });

  it("cannot get an upload URL into the owner's folder, whatever the file name says", async () => {
    const answer = await requestUpload(other, { fileName: `${owner.sub}/evil.png`, contentType: 'image/png', sizeBytes: 100 });
    expect(answer.status).toBe(200);
    expect(answer.body.imageKey.startsWith(`${other.sub}/`)).toBe(true);
  });

  it('answers 401 without a token on every route', async () => {
    for (const [method, path] of [
      ['POST', '/clothing-items/upload-url'],
      ['POST', '/clothing-items'],
      ['GET', '/clothing-items'],
      ['GET', `/clothing-items/${item.id}`],
      ['PATCH', `/clothing-items/${item.id}`],
      ['DELETE', `/clothing-items/${item.id}`],
    ] as const) {
      expect((await api(twin.apiUrl, method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} })).status).toBe(401);
    }
  });
});
