// Image generation, edit, upscale and the history in real Chromium against the local twin: a library item becomes an
// on-model picture, which is seen in the history, viewed and downloaded, then edited and upscaled to 4K; the
// downloaded files are real PNGs of the promised size.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GENERATION_MESSAGES } from '../../lambdas/contracts/generations.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
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
    expect(download.suggestedFilename()).toMatch(/^image-[0-9a-z]{8}\.png$/);
    expect(await pixelSize(download)).toEqual({ width: 1440, height: 2560, format: 'png' });

    for (const tab of ['Videos', 'Batch']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByText('No generations yet').waitFor();
    }
    await page.getByRole('tab', { name: 'Images' }).click();
    await expect.poll(() => page.getByTestId('generation-row').count()).toBe(1);

    // The library card counts the generation made from it.
    await page.goto('/studio/clothing');
    await page.getByRole('article', { name: ITEM_NAME }).getByText('Used once').waitFor();
  });

  it('edits the result picked from past results', async () => {
    const { page } = session;
    await page.goto('/studio/generate/edit');
    await page.getByText('Instructions the local studio engine understands').waitFor();
    await page.getByRole('tab', { name: 'Past results' }).click();
    await page.getByRole('radio', { name: new RegExp(`^${ITEM_NAME} · 2K 9:16$`) }).first().click();
    await page.getByLabel('Editing instructions').fill('background white and mirror');
    await page.getByRole('button', { name: 'Apply Edit' }).click();
    await waitForResult(page);
    expect(await pixelSize(await downloadResult(page))).toEqual({ width: 1440, height: 2560, format: 'png' });
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
    expect(await pixelSize(await downloadResult(page))).toEqual({ width: 2880, height: 5120, format: 'png' });
    // 5 sign-up credits − 1 image − 1 edit − 2 upscale.
    await page.getByText('You have 1', { exact: false }).waitFor();
    expect(session.errors).toEqual([]);
  });
});
