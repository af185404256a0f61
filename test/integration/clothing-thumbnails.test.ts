// Light library tiles: a clothing item's thumbnail is made once, when its upload is registered (WebP, covering the
// 3:4 tile box, upright), the list answers it beside the original, and items stored before thumbnails get theirs from
// POST /clothing-items/thumbnails — never from a read.
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CLOTHING_THUMBNAIL_BOX } from '../../lambdas/contracts/api.js';
import { MAKE_THUMBNAILS_PER_CALL } from '../../lambdas/contracts/clothing.js';
import { phonePhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const clothingRepo = await import('../../lambdas/data/clothing-repo.js');

interface ListedItem {
  id: string;
  name: string;
  signed_url: string;
  thumbnail_signed_url: string | null;
}

const list = async (user: TestUser) => (await api<{ items: ListedItem[] }>(twin.apiUrl, 'GET', '/clothing-items', { user })).body.items;
const download = async (url: string) => {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return { type: answer.headers.get('content-type'), bytes: Buffer.from(await answer.arrayBuffer()) };
};

/** An item as one stored before thumbnails: its photo uploaded, its row written without a thumbnail. */
async function itemWithoutThumbnail(user: TestUser, photo: Buffer, name: string): Promise<string> {
  const upload = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', { user, body: { fileName: `${name}.jpg`, contentType: 'image/jpeg', sizeBytes: photo.length } });
  expect((await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo })).ok).toBe(true);
  const id = /(\d{13}-[0-9a-f]{16})\.jpg$/.exec(upload.body.imageKey)![1]!;
  await clothingRepo.putNewItem({
    id,
    user_id: user.sub,
    name,
    description: null,
    image_key: upload.body.imageKey,
    file_size_bytes: photo.length,
    mime_type: 'image/jpeg',
    is_deleted: false,
    generations_count: 0,
    created_at: new Date().toISOString(),
    product_type: 'clothing',
  });
  return id;
}

let photo: Buffer;
beforeAll(async () => {
  photo = await phonePhoto();
});

describe('clothing thumbnails', () => {
  it('are made when an upload is registered: WebP, 3:4 at the tile box, a small fraction of the 12 MP original', async () => {
    const user = await createUser(twin);
    const registered = await addClothingItem(twin.apiUrl, user, photo, 'Navy tee');
    const [item] = await list(user);
    expect(item).toMatchObject({ id: registered.id, thumbnail_signed_url: expect.stringContaining('/thumbnails/') });
    const thumbnail = await download(item!.thumbnail_signed_url!);
    expect(thumbnail.type).toBe('image/webp');
    expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ format: 'webp', ...CLOTHING_THUMBNAIL_BOX });
    const original = await download(item!.signed_url);
    expect(original.bytes.length).toBe(photo.length);
    // 2.6 MB of photo, tens of KB of thumbnail.
    expect(thumbnail.bytes.length).toBeLessThan(photo.length / 20);
  });

  it('turn a photo taken sideways upright, and keep a cut-out\'s transparency', async () => {
    const user = await createUser(twin);
    // Stored 400×300 with EXIF orientation 6 (rotate 90° clockwise): seen upright it is 300×400.
    const sideways = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#1f3a68' } }).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    await addClothingItem(twin.apiUrl, user, sideways, 'Sideways tee');
    const cutout = await sharp({ create: { width: 600, height: 800, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 300, height: 400, channels: 4, background: '#b91c1c' } }, left: 150, top: 200 }])
      .png()
      .toBuffer();
    const upload = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', { user, body: { fileName: 'cutout.png', contentType: 'image/png', sizeBytes: cutout.length } });
    await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: cutout });
    expect((await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.body.imageKey, name: 'Cut-out dress' } })).status).toBe(201);

    const items = await list(user);
    const upright = await sharp((await download(items.find((item) => item.name === 'Sideways tee')!.thumbnail_signed_url!)).bytes).metadata();
    // Never enlarged: the 300×400 picture stays 300×400, upright.
    expect(upright).toMatchObject({ width: 300, height: 400 });
    const transparent = await sharp((await download(items.find((item) => item.name === 'Cut-out dress')!.thumbnail_signed_url!)).bytes).metadata();
    expect(transparent).toMatchObject({ format: 'webp', hasAlpha: true, ...CLOTHING_THUMBNAIL_BOX });
  });

  it('are made for items stored before thumbnails by POST /clothing-items/thumbnails, never by a list read', async () => {
    const user = await createUser(twin);
    const small = await sharp(photo).resize(600).jpeg().toBuffer();
    const old = await Promise.all(Array.from({ length: MAKE_THUMBNAILS_PER_CALL + 1 }, (_, index) => itemWithoutThumbnail(user, small, `Old item ${index + 1}`)));
    // Reads answer the original to show and no thumbnail, and write none.
    expect((await list(user)).map((item) => item.thumbnail_signed_url)).toEqual(old.map(() => null));
    expect((await list(user)).map((item) => item.thumbnail_signed_url)).toEqual(old.map(() => null));
    expect((await clothingRepo.getItem(user.sub, old[0]!))?.thumbnail_key).toBeUndefined();

    const made = () => api(twin.apiUrl, 'POST', '/clothing-items/thumbnails', { user });
    expect(await made()).toMatchObject({ status: 200, body: { made: MAKE_THUMBNAILS_PER_CALL, remaining: 1 } });
    expect(await made()).toMatchObject({ status: 200, body: { made: 1, remaining: 0 } });
    expect(await made()).toMatchObject({ status: 200, body: { made: 0, remaining: 0 } });
    const items = await list(user);
    expect(items.filter((item) => item.thumbnail_signed_url === null)).toEqual([]);
    const thumbnail = await download(items[0]!.thumbnail_signed_url!);
    expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ format: 'webp', ...CLOTHING_THUMBNAIL_BOX });

  });
});
