// One cutout everywhere (issue 49 item 3): "Emerald drop necklace", a thin gold chain and a pendant on a wavy
// black-and-white wall, photographed as a phone does (4000×5000, the chain 15 px wide), worn by a saved model "Nadia"
// at 4:5: it keeps its chain in an on-model close-up and in every shot of a batch (Product, Front and Packshot), as the
// Packshot tool's cutout keeps it, the pendant neither cut off by the frame nor blown up across the chest. Before, the
// on-model pictures cut the photo out at 3072 px and kept a third of the chain's reach; the packshots at 1600 px all
// of it (lambdas/providers/local-engine/product-photo.ts). Measured on the stored results, read back through their
// signed URLs, in pendants, so pictures of any scale compare.
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
const TIMEOUT = 480_000;

/**
 * Where the necklace is in a picture: how far its gold spreads across (in pendant widths) and rises above the pendant
 * (in pendant heights), and the pendant's box.
 */
async function necklaceIn(url: string) {
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const box = (colour: { r: number; g: number; b: number }, tolerance: number) => {
    const found = { left: info.width, right: -1, top: info.height, bottom: -1, pixels: 0 };
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const i = (y * info.width + x) * 3;
        if (Math.abs(data[i]! - colour.r) + Math.abs(data[i + 1]! - colour.g) + Math.abs(data[i + 2]! - colour.b) >= tolerance) continue;
        found.pixels++;
        found.left = Math.min(found.left, x);
        found.right = Math.max(found.right, x);
        found.top = Math.min(found.top, y);
        found.bottom = Math.max(found.bottom, y);
      }
    }
    return found;
  };
  const emerald = box(NECKLACE_EMERALD, 60);
  const gold = box(NECKLACE_GOLD, 70);
  const pendant = { width: emerald.right - emerald.left + 1, height: emerald.bottom - emerald.top + 1 };
  return {
    width: info.width,
    height: info.height,
    emerald,
    across: (gold.right - gold.left + 1) / pendant.width,
    above: (emerald.top - gold.top) / pendant.height,
  };
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
    const item = await addClothingItem(twin.apiUrl, user, await emeraldNecklaceOnWavesPhoto(4000, 5000, 3), 'Emerald drop necklace');
    const nadia = await api(twin.apiUrl, 'POST', '/models', { user, body: { name: 'Nadia', description: 'Nadia, late 20s, long dark hair, warm smile' } });
    expect(nadia.status, JSON.stringify(nadia.body)).toBe(201);
    const modelId = nadia.body.id as string;

    const image = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      headers: { 'idempotency-key': randomUUID() },
      body: { clothingItemId: item.id, productType: 'jewelry', modelId, cameraZoom: 'close-up', imageSize: '1k', aspectRatio: '4:5' },
    });
    expect(image.status, JSON.stringify(image.body)).toBe(200);
    const onModel = await settled(user, image.body.generationId);
    expect(onModel.status).toBe('complete');

    const batch = await api(twin.apiUrl, 'POST', '/generate-batch', {
      user,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        batchItems: [{ clothingItemId: item.id, modelId, cameraAngles: ['Product', 'Front', 'Packshot'], backdrop: 'white', productType: 'jewelry', marketplace: 'amazon' }],
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
      // The chain's whole reach, as the packshot's cutout keeps it: its arms spread over 5.5 pendant widths and rise
      // 3.1 pendant heights above the pendant (a third of that when on-model pictures cut the photo out at 3072 px).
      expect(found.across, `${name}: the chain spreads across`).toBeGreaterThan(4.5);
      expect(found.above, `${name}: the chain rises to the neck`).toBeGreaterThan(2.5);
      // The pendant whole (not cut off by the frame) and to scale (not blown up across the chest).
      expect(found.emerald.pixels, `${name}: the pendant is there`).toBeGreaterThan(100);
      expect(found.emerald.bottom, `${name}: the pendant's tip is inside the picture`).toBeLessThan(found.height - 4);
      expect((found.emerald.right - found.emerald.left + 1) / found.width, `${name}: the pendant is not blown up`).toBeLessThan(0.16);
    }
  }, TIMEOUT * 2);
});
