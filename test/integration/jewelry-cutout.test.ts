// One cutout everywhere (issue 49 item 3): "Emerald drop necklace", a thin gold chain and a pendant on a wavy
// black-and-white wall, keeps its chain in an on-model close-up and in every shot of a batch (Product, Front and
// Packshot), as the Packshot tool's cutout keeps it; the close-up frames the whole necklace, the pendant neither cut
// off by the frame nor blown up across the chest. Measured on the stored results, read back through their signed URLs.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import type { Batch } from '../../lambdas/contracts/batch.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { emeraldNecklaceOnWavesPhoto, NECKLACE_EMERALD, NECKLACE_GOLD } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
const TIMEOUT = 240_000;

const near = (r: number, g: number, b: number, colour: { r: number; g: number; b: number }, tolerance: number) =>
  Math.abs(r - colour.r) + Math.abs(g - colour.g) + Math.abs(b - colour.b) < tolerance;

/** Where the necklace is in a picture: its gold (the chain) above the emerald's top, and the emerald's box. */
async function necklaceIn(url: string) {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const emerald = { left: info.width, right: -1, top: info.height, bottom: -1, pixels: 0 };
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (!near(data[i]!, data[i + 1]!, data[i + 2]!, NECKLACE_EMERALD, 60)) continue;
      emerald.pixels++;
      emerald.left = Math.min(emerald.left, x);
      emerald.right = Math.max(emerald.right, x);
      emerald.top = Math.min(emerald.top, y);
      emerald.bottom = Math.max(emerald.bottom, y);
    }
  }
  // The chain: gold pixels in the rows above the pendant (the pendant's own gold rim is below its top).
  let chain = 0;
  for (let y = 0; y < Math.max(0, emerald.top - 2); y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (near(data[i]!, data[i + 1]!, data[i + 2]!, NECKLACE_GOLD, 70)) chain++;
    }
  }
  return { width: info.width, height: info.height, emerald, chain };
}

async function settled(user: TestUser, id: string): Promise<Generation> {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const { status, body } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${id}`, { user });
    expect(status, JSON.stringify(body)).toBe(200);
    if (body.status !== 'processing') return body;
    if (Date.now() > deadline) throw new Error(`generation ${id} still processing`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('jewelry on a busy photo', () => {
  it('keeps its chain in an on-model close-up and in every shot of a batch, the pendant whole and to scale', async () => {
    const user = await createUser(twin);
    await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 10 }, headers: { 'idempotency-key': randomUUID() } });
    const item = await addClothingItem(twin.apiUrl, user, await emeraldNecklaceOnWavesPhoto(), 'Emerald drop necklace');

    const image = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      headers: { 'idempotency-key': randomUUID() },
      body: { clothingItemId: item.id, productType: 'jewelry', prompt: 'Nadia', cameraZoom: 'close-up', imageSize: '1k', aspectRatio: '4:5' },
    });
    expect(image.status, JSON.stringify(image.body)).toBe(200);
    const onModel = await settled(user, image.body.generationId);
    expect(onModel.status).toBe('complete');

    const batch = await api(twin.apiUrl, 'POST', '/generate-batch', {
      user,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        batchItems: [{ clothingItemId: item.id, prompt: 'Nadia', cameraAngles: ['Product', 'Front', 'Packshot'], backdrop: 'white', productType: 'jewelry', marketplace: 'amazon' }],
        imageSize: '1k',
        aspectRatio: '4:5',
      },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const deadline = Date.now() + TIMEOUT;
    let done: Batch;
    for (;;) {
      done = (await api<Batch>(twin.apiUrl, 'GET', `/batches/${batch.body.batchId}`, { user })).body;
      if (done.summary) break;
      if (Date.now() > deadline) throw new Error('batch not finished');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(done.summary).toMatchObject({ successfulGenerations: 3, failedGenerations: 0 });

    const pictures: Array<[string, string]> = [
      ['on-model close-up', onModel.result_url!],
      ...done.photos!.map((photo): [string, string] => [`batch ${photo.cameraAngle}`, photo.generation.result_url!]),
    ];
    for (const [name, url] of pictures) {
      const found = await necklaceIn(url);
      // The chain: a 4 px gold line from the neck down to the pendant, hundreds of pixels in every picture.
      expect(found.chain, `${name}: the chain is there`).toBeGreaterThan(150);
      // The pendant whole (not cut off by the frame) and to scale (not blown up across the chest).
      expect(found.emerald.pixels, `${name}: the pendant is there`).toBeGreaterThan(100);
      expect(found.emerald.bottom, `${name}: the pendant's tip is inside the picture`).toBeLessThan(found.height - 4);
      expect((found.emerald.right - found.emerald.left + 1) / found.width, `${name}: the pendant is not blown up`).toBeLessThan(0.16);
    }
  }, TIMEOUT * 2);
});
