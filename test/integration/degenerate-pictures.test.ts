// Degenerate pictures (issue 40 item 5), over HTTP on the shared twin: the rules hold for the result, not the
// instruction — a side of at least 64 px and a ratio within 1:10..10:1, checked on the size each edit step and each
// upscale really makes, before any charge — and a source too small to work from is refused with a clear message
// before any charge, on every route that takes one.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MIN_IMAGE_SIDE } from '../../lambdas/contracts/image-ratios.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { productJpeg, uploadFile } from '../support/uploads.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');

const spend = (user: TestUser, path: string, body: unknown) =>
  api(twin.apiUrl, 'POST', path, { user, body, headers: { 'idempotency-key': randomUUID() } });
const balance = async (user: TestUser) => (await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits as number;
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();

async function settled(user: TestUser, id: string): Promise<any> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { body } = await api(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status !== 'processing' || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function made(user: TestUser, path: string, body: unknown): Promise<any> {
  const started = await spend(user, path, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return settled(user, started.body.generationId);
}

describe('the rules apply to the result, before any charge', () => {
  let user: TestUser;
  let wide: any;
  beforeAll(async () => {
    user = await createUser(twin);
    const item = await addClothingItem(twin.apiUrl, user, await productJpeg());
    const photo = await made(user, '/generate-ai-image', { clothingItemId: item.id, prompt: 'young female model', imageSize: '1k' });
    expect(photo).toMatchObject({ status: 'complete', width: 720, height: 1280 });
    // 10:1 of 720×1280 is 720×72: within the rules.
    wide = await made(user, '/edit-ai-image', { imageUrl: photo.id, editPrompt: 'crop to 10:1' });
    expect(wide).toMatchObject({ status: 'complete', width: 720, height: 72 });
  }, 180_000);

  it('"crop to 1:10" of a 720×72 picture would make 7×72 px: refused with its size, nothing charged', async () => {
    const before = await balance(user);
    const refused = await spend(user, '/edit-ai-image', { imageUrl: wide.id, editPrompt: 'crop to 1:10' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'RESULT_SIZE_NOT_ALLOWED' } });
    expect(refused.body.error).toContain('7×72 px');
    expect(refused.body.error).toContain(`at least ${MIN_IMAGE_SIDE} px`);
    // The same two crops in one instruction: the step in between counts too.
    const chained = await spend(user, '/edit-ai-image', { imageUrl: wide.id, editPrompt: 'crop to 10:1 then crop to 1:10' });
    expect(chained).toMatchObject({ status: 400, body: { code: 'RESULT_SIZE_NOT_ALLOWED' } });
    expect(await balance(user)).toBe(before);
  });

  it('an upscale is judged by the size it would really get (the source ratio kept): beyond 10:1 it is refused before the charge', async () => {
    const narrow = await uploadFile(twin, user, '/generation-uploads/upload-url', await picture(64, 700), 'narrow.png', 'image/png');
    const before = await balance(user);
    const refused = await spend(user, '/upscale-ai-image', { imageUrl: narrow, targetResolution: '8k' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'RESULT_SIZE_NOT_ALLOWED' } });
    expect(refused.body.error).toMatch(/between 1:10 and 10:1/);
    expect(await balance(user)).toBe(before);
  });
});

describe('sources too small to work from', () => {
  it('a 40×40 upload, inline image or library item is refused with a clear 400 before any charge (on-model, edit, upscale, video)', async () => {
    const user = await createUser(twin);
    const tiny = await picture(40, 40);
    const key = await uploadFile(twin, user, '/generation-uploads/upload-url', tiny, 'tiny.png', 'image/png');
    const item = await addClothingItem(twin.apiUrl, user, await sharp(tiny).jpeg().toBuffer(), 'Tiny tee');
    const answers = [
      await spend(user, '/generate-ai-image', { imageKey: key, productType: 'clothing', prompt: 'young female model' }),
      await spend(user, '/generate-ai-image', { imageData: tiny.toString('base64'), productType: 'clothing', prompt: 'young female model' }),
      await spend(user, '/generate-ai-image', { clothingItemId: item.id, productType: 'clothing', prompt: 'young female model' }),
      await spend(user, '/edit-ai-image', { imageUrl: key, editPrompt: 'background white' }),
      await spend(user, '/upscale-ai-image', { imageUrl: key, targetResolution: '2k' }),
      await spend(user, '/generate-video', { imageKey: key, prompt: 'slow turn', duration: 5, aspect_ratio: '9:16', output_count: 1 }),
    ];
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 400, body: { code: 'IMAGE_TOO_SMALL' } });
      expect(answer.body.error).toBe(`This image is 40×40 px, too small to work from. Please use an image of at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} px.`);
    }
    expect(await balance(user)).toBe(5);
    expect((await api(twin.apiUrl, 'GET', '/generations', { user })).body.items).toEqual([]);
  });
});
