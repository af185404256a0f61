// Image generation, edit, upscale and the history in real Chromium against the local twin: a library item becomes an
// on-model picture, which is seen in the history, viewed and downloaded, then edited and upscaled to 4K; the
// downloaded files are real PNGs of the promised size.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GENERATION_MESSAGES } from '../../lambdas/contracts/generations.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

let session: TestPage;
const email = uniqueEmail('generation.user');
const ITEM_NAME = 'Red studio tee';
const GENERATION_TIMEOUT = 120_000;

async function pixelSize(download: Download): Promise<{ width?: number; height?: number; format?: string }> {
  const path = await download.path();
  const { width, height, format } = await sharp(await readFile(path)).metadata();
  return { width, height, format };
}

/** Clicks Download under the result and answers the saved file. */
async function downloadResult(page: Page): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
  return download;
}

const SMALL = { width: 180, height: 320 };

/** A picture as raw RGB at 1/8 of 1440×2560, optionally mirrored (left and right swapped). */
async function small(png: Buffer, { mirror = false } = {}): Promise<Buffer> {
  const picture = sharp(png).removeAlpha().resize(SMALL.width, SMALL.height, { fit: 'fill' });
  return (mirror ? picture.flop() : picture).raw().toBuffer();
}

const saturated = (rgb: Buffer, at: number) => Math.max(rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) - Math.min(rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) > 60;

/** Mean absolute difference (0–255) of two raw RGB pictures over the pixels that are saturated in either (the product). */
function productDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  let count = 0;
  for (let at = 0; at < a.length; at += 3) {
    if (!saturated(a, at) && !saturated(b, at)) continue;
    for (let channel = 0; channel < 3; channel++, count++) sum += Math.abs(a[at + channel]! - b[at + channel]!);
  }
  return sum / count;
}

/** The darkest channel of the two top corners' pixels. */
function topCorners(rgb: Buffer): number[] {
  const right = (SMALL.width - 1) * 3;
  return [Math.min(rgb[0]!, rgb[1]!, rgb[2]!), Math.min(rgb[right]!, rgb[right + 1]!, rgb[right + 2]!)];
}

async function waitForResult(page: Page): Promise<void> {
  await page.getByTestId('generation-result').waitFor({ timeout: GENERATION_TIMEOUT });
}

useSignedInPage(email, (signedIn) => (session = signedIn), {
  // A library item, added through the API as the Clothing Manager would (that screen has its own tests).
  prepare: async () => void (await addClothingItem(twin().apiUrl, await signIn(twin(), email), await tshirtPhoto(600, 700), ITEM_NAME)),
});

describe('image generation, history, edit and upscale', () => {
  it('asks for a library item before generating', async () => {
    const { page } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('heading', { name: 'Image Generation' }).waitFor();
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await toast(page, GENERATION_MESSAGES.selectClothingItem).waitFor();
    // The screen's defaults: 2K, prompt enhance off, one model, 1 credit.
    expect(await page.getByRole('radio', { name: /2K/ }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: /Prompt enhance/ }).getAttribute('aria-checked')).toBe('false');
    await page.getByText('Cost: 1 credit').waitFor();
  });

  it('generates from a library item and shows the result', async () => {
    const { page } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: ITEM_NAME, exact: true }).click();
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await toast(page, GENERATION_MESSAGES.enterModelDescription).waitFor();
    await page.getByLabel('Model description').fill('young female model, relaxed pose');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await waitForResult(page);
    // A preview says so, once: the badge, one sentence with the providers guide, and what it did not render.
    await page.getByTestId('preview-badge').first().waitFor();
    const note = page.getByTestId('preview-note');
    await note.getByText('made on this machine by the preview engine, without an AI model', { exact: false }).waitFor();
    // The providers guide is a page of the studio (opened beside the result), not a developer file.
    const guide = note.getByRole('link', { name: 'How to connect a provider' });
    expect(await guide.getAttribute('href')).toBe('/support/guides/providers');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), guide.click()]);
    await opened.getByRole('heading', { level: 1, name: 'Connect an AI provider' }).waitFor();
    await opened.getByRole('list', { name: 'Providers' }).getByText('Google (Gemini)').waitFor();
    await opened.close();
    await note.getByText('Not rendered by the preview engine: young female model, relaxed pose.').waitFor();
    const size = await pixelSize(await downloadResult(page));
    expect(size).toEqual({ width: 1440, height: 2560, format: 'png' });
  });

  it('lists it in the history, opens View and downloads the file', async () => {
    const { page } = session;
    await page.goto('/studio/generations');
    const row = page.getByTestId('generation-row').first();
    await row.getByText('Complete').waitFor();
    // One display name per model, and the product (screen and library item) the row came from.
    await row.getByTestId('generation-model').filter({ hasText: 'Preview engine (no AI)' }).waitFor();
    await row.getByTestId('preview-badge').waitFor();
    await row.getByText(`Image generation · ${ITEM_NAME}`).waitFor();
    await row.getByRole('button', { name: 'View' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.locator('img').evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBe(1440);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await row.getByRole('button', { name: 'More actions' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download File' }).click()]);
    // Named as a seller names it: the product, the kind and the size.
    expect(download.suggestedFilename()).toBe('red-studio-tee-on-model-1440x2560.png');
    expect(await pixelSize(download)).toEqual({ width: 1440, height: 2560, format: 'png' });

    for (const tab of ['Videos', 'Batch']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByText('No generations yet').waitFor();
    }
    await page.getByRole('tab', { name: 'Images' }).click();
    // The Images list is read again on the tab's click (seconds on a loaded machine): its row, then that it is the only one.
    await page.getByTestId('generation-row').first().waitFor();
    expect(await page.getByTestId('generation-row').count()).toBe(1);

    // The library card counts the generation made from it.
    await page.goto('/studio/clothing');
    await page.getByRole('article', { name: ITEM_NAME }).getByText('Used once').waitFor();
  });

  it('edits the result picked from past results', async () => {
    const { page } = session;
    // The picture to edit, as the history holds it (the one generation so far).
    const { body } = await api(twin().apiUrl, 'GET', '/generations', { user: await signIn(twin(), email) });
    expect(body.items).toHaveLength(1);
    const source = Buffer.from(await (await fetch(body.items[0].result_url)).arrayBuffer());

    await page.goto('/studio/generate/edit');
    await page.getByText('Instructions the local studio engine understands').waitFor();
    await page.getByRole('tab', { name: 'Past results' }).click();
    await page.getByRole('radio', { name: new RegExp(`^${ITEM_NAME} · 2K 9:16$`) }).first().click();
    await page.getByLabel('Editing instructions').fill('background white and mirror');
    await page.getByRole('button', { name: 'Apply Edit' }).click();
    await waitForResult(page);
    const download = await downloadResult(page);
    expect(download.suggestedFilename()).toBe('red-studio-tee-edited-1440x2560.png');
    expect(await pixelSize(download)).toEqual({ width: 1440, height: 2560, format: 'png' });

    // What the seller asked for, compared with the source pixel by pixel (at 1/8 scale): the product (its saturated
    // pixels, the red tee and its blue patch) is the source's mirrored, so it is no longer where it was, and the
    // background is white where the studio's was grey.
    const edited = await readFile(await download.path());
    const [before, beforeMirrored, after] = await Promise.all([small(source), small(source, { mirror: true }), small(edited)]);
    expect(productDifference(beforeMirrored, after), 'the product, mirrored').toBeLessThan(2);
    expect(productDifference(before, after), 'the product, as it was').toBeGreaterThan(8);
    expect(topCorners(before).every((value) => value < 245), 'the source has a grey studio').toBe(true);
    expect(topCorners(after)).toEqual([255, 255]);
  });

  it('upscales the edit to 4K and downloads a 2880×5120 picture', async () => {
    const { page } = session;
    await page.goto('/studio/generate/upscale');
    for (const [name, cost] of [['2K', '1 credit'], ['4K', '2 credits'], ['8K', '3 credits']]) {
      await page.getByRole('radio', { name: new RegExp(`^${name}.*${cost}$`) }).waitFor({ state: 'attached' });
    }
    await page.getByRole('tab', { name: 'Past results' }).click();
    await page.getByRole('radio', { name: new RegExp(`^${ITEM_NAME} · 2K 9:16 · Edited$`) }).first().click();
    await page.getByText('4K', { exact: true }).click();
    await page.getByRole('button', { name: 'Upscale to 4K' }).click();
    await waitForResult(page);
    const download = await downloadResult(page);
    expect(download.suggestedFilename()).toBe('red-studio-tee-upscaled-2880x5120.png');
    expect(await pixelSize(download)).toEqual({ width: 2880, height: 5120, format: 'png' });
    // 5 sign-up credits − 1 image − 1 edit − 2 upscale.
    await page.getByText('You have 1', { exact: false }).waitFor();
    expect(session.errors).toEqual([]);
  });
});
