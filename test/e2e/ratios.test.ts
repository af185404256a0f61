// Marketplace ratios in real Chromium against the local twin: besides the 9:16 sizes (still the default), Image
// Generation and Batch offer 1:1, 4:5 and 3:4 at 1K/2K/4K for the same credit; the picture is made at that exact size,
// History shows its ratio, and an upscale keeps the ratio of its source.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn, type TestUser } from '../support/users.js';
import type { Browser } from 'playwright';
import { PHONE, openPage, signInInUi, toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('ratios');
const ITEM = 'Silk scarf';
let session: TestPage;
let browser: Browser;
let user: TestUser;
useSignedInPage(email, (signedIn, chromium) => ((session = signedIn), (browser = chromium)), {
  prepare: async () => {
    user = await signIn(twin(), email);
    await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), ITEM);
  },
});

async function finished(id: string, timeoutMs = 120_000): Promise<{ width: number; height: number; params: Record<string, unknown> }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(twin().apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status === 'complete') return body;
    if (body.status !== 'processing' || Date.now() > deadline) throw new Error(`generation ${id} is ${body.status}`);
    await new Promise((done) => setTimeout(done, 300));
  }
}

describe('marketplace ratios', () => {
  it('makes a 1:1 picture at 1K for 1 credit, shows its ratio in History, and upscales it square', { timeout: 240_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('heading', { name: 'Image Generation' }).waitFor();
    // 9:16 stays the default.
    expect(await page.getByRole('radio', { name: /^9:16/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByLabel('Model description').fill('young female model');
    await page.getByRole('radio', { name: /^1:1/ }).check({ force: true });
    await page.getByRole('radio', { name: /^1K/ }).check({ force: true });
    await page.getByRole('radio', { name: '1K 1024×1024' }).waitFor({ state: 'attached' });
    await page.getByText('Cost: 1 credit').waitFor();
    await page.getByRole('button', { name: 'Generate Image' }).click();

    let list: any;
    await expect
      .poll(async () => (list = (await api(twin().apiUrl, 'GET', '/generations?type=image', { user })).body).items?.length ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const image = await finished(list.items[0].id);
    expect({ width: image.width, height: image.height, ratio: image.params.aspectRatio }).toEqual({ width: 1024, height: 1024, ratio: '1:1' });

    await page.goto('/studio/generations');
    await page.getByTestId('generation-shape').filter({ hasText: '1:1 · 1024×1024' }).first().waitFor();

    const upscale = await api(twin().apiUrl, 'POST', '/upscale-ai-image', {
      user,
      body: { imageUrl: list.items[0].id, targetResolution: '2k' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(upscale.status).toBe(200);
    const upscaled = await finished(upscale.body.generationId);
    // 2K in the source's own ratio, as image generation makes a square 2K picture.
    expect([upscaled.width, upscaled.height]).toEqual([2048, 2048]);
    expect(errors).toEqual([]);
  });

  it('offers the ratios in Batch on a phone: a 4:5 batch photo at 2K', { timeout: 240_000 }, async () => {
    const phone = await openPage(browser, PHONE);
    try {
      const { page } = phone;
      await signInInUi(page, email);
      await page.goto('/studio/generate/batch-generation');
      await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
      expect(await page.getByRole('radio', { name: /^9:16/ }).isChecked()).toBe(true);
      await page.getByRole('radio', { name: ITEM, exact: true }).click();
      await page.getByRole('button', { name: 'Front', exact: true }).click();
      await page.getByRole('radio', { name: /^4:5/ }).check({ force: true });
      await page.getByRole('button', { name: 'Add to Batch' }).click();
      await page.getByTestId('batch-total-credits').filter({ hasText: '1 credit' }).waitFor();
      await page.getByRole('button', { name: 'Generate Batch' }).click();
      await toast(page, 'Batch started').waitFor();
      const { body: batches } = await api(twin().apiUrl, 'GET', '/batches', { user });
      const batchId: string = batches.items[0].id;
      let batch: any;
      await expect
        .poll(async () => (batch = (await api(twin().apiUrl, 'GET', `/batches/${batchId}`, { user })).body).status, { timeout: 200_000, interval: 1_000 })
        .toBe('complete');
      expect(batch.aspect_ratio).toBe('4:5');
      expect(batch.photos.map((row: { generation: { width: number; height: number } }) => [row.generation.width, row.generation.height])).toEqual([[2048, 2560]]);
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
