// Importing from a product link in real Chromium against the twin, whose fetch guard opens only the local sample
// shop's port: on Video Generation paste a sample Shopify page's link, see its product images as thumbnails, pick
// one and make a looping video from it; in the Clothing Manager's New Item dialog add an item the same way; a link
// into our own network is refused with its message.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, inject, it } from 'vitest';
import { measureSeam, type SeamMeasurement } from '../../lambdas/media/index.js';
import { uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const shop = inject('sampleShopUrl');
const VIDEO_TIMEOUT = 240_000;

let session: TestPage;
useSignedInPage(uniqueEmail('import.user'), (signedIn) => (session = signedIn), { fastPolling: true });

async function findImages(page: Page, url: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Product link' }).fill(url);
  await page.getByRole('button', { name: 'Find images' }).click();
}

/** The seam of the video at `url`, measured as the studio measures it before delivery. */
async function seamOf(url: string): Promise<SeamMeasurement> {
  const directory = await mkdtemp(join(tmpdir(), 'modelloop-import-video-'));
  try {
    const file = join(directory, 'video.mp4');
    await writeFile(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
    return await measureSeam(file);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('import from a product link', () => {
  it('pastes a Shopify page on Video Generation, picks its first photo and makes a looping video from it', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
    await page.getByRole('button', { name: 'Product URL' }).click();
    await findImages(page, `${shop}/products/linen-shirt`);

    const found = page.getByRole('radiogroup', { name: 'Images found on the page' });
    // The twin loads the import handler (sharp, the HTML parser) on this first call.
    await found.or(page.getByRole('alert')).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('alert').count(), await page.getByRole('alert').allTextContents().then(String)).toBe(0);
    const thumbnails = found.getByRole('radio');
    expect(await thumbnails.count()).toBe(3);
    expect(await thumbnails.first().getAttribute('aria-label')).toMatch(/^Product image 1, 800×1000, /);
    // The previews are the server's data: images; nothing is loaded from the shop by the page.
    expect(await thumbnails.first().locator('img').getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    await thumbnails.first().click();
    await expect.poll(() => thumbnails.first().getAttribute('aria-checked'), { timeout: 20_000 }).toBe('true');

    await page.getByRole('button', { name: 'Pivot', exact: true }).click();
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByTestId('video-typical-time').waitFor();
    const player = page.getByLabel('Generated video 1');
    await player.waitFor({ timeout: VIDEO_TIMEOUT });
    await expect.poll(() => player.evaluate((video: any) => video.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    // Looping: the page plays it on repeat, and the file's last frame leads into its first as any two frames do.
    expect(await player.evaluate((video: any) => video.loop)).toBe(true);
    const seam = await seamOf(await player.evaluate((video: any) => video.currentSrc as string));
    expect(seam.medianStepDifference, 'it moves').toBeGreaterThan(0.05);
    expect(seam.score).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
  });

  it('adds a clothing item from a WooCommerce page in the New Item dialog', async () => {
    const { page, errors } = session;
    await page.goto('/studio/clothing');
    await page.getByRole('button', { name: /New Item/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Item' });
    await dialog.getByRole('button', { name: 'Import from a product link' }).click();
    await findImages(page, `${shop}/product/silk-scarf/`);
    const first = dialog.getByRole('radiogroup', { name: 'Images found on the page' }).getByRole('radio').first();
    await first.click();
    await expect.poll(() => first.getAttribute('aria-checked'), { timeout: 20_000 }).toBe('true');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('silk-scarf');
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await page.getByText('“silk-scarf” is in your clothing library.').waitFor();
    expect(errors).toEqual([]);
  });

  it('refuses a link into our own network with its message', async () => {
    const { page } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('tab', { name: 'Product link' }).click();
    await findImages(page, 'http://169.254.169.254/latest/meta-data/');
    await page.getByRole('alert').filter({ hasText: "That address isn't allowed" }).waitFor();
  });
});
