// A new seller's first hour, in Chromium against the local twin (issue 49 items 8–10): the dashboard's four steps
// ticked from the account's records and gone once all are done; light library tiles; focus that follows Generate to
// the result; packshots named by product and marketplace in the pickers; one preview note per video result; a
// finished batch that comes into view and says so once; a refused portrait that stays on the form; Prices on a phone.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../lambdas/contracts/batch.js';
import { MODEL_MESSAGES } from '../../lambdas/contracts/models.js';
import { noPerson } from '../fixtures/faces.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn, type TestUser } from '../support/users.js';
import { DESKTOP, PHONE, toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('first.hour');
const ITEM = 'Navy Surf Club tee';
const WORK_TIMEOUT = 180_000;
const VIDEO_TIMEOUT = 360_000;
let session: TestPage;
let user: TestUser;

useSignedInPage(email, (signedIn) => (session = signedIn), {
  fastPolling: true,
  prepare: async () => {
    user = await signIn(twin(), email);
    // Enough for the image, two packshots, a 3-video order and a batch photo.
    const bought = await api(twin().apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 50 }, headers: { 'idempotency-key': randomUUID() } });
    expect(bought.status).toBe(200);
  },
});

/** The dashboard's steps as [step, done] pairs, once the dashboard has read them; [] when the card is not shown. */
async function firstSteps(page: Page): Promise<[string, boolean][]> {
  const read = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/first-steps') && response.status() === 200);
  await page.goto('/dashboard');
  const { done } = (await (await read).json()) as { done: string[] };
  await page.getByTestId('dashboard-credits').waitFor();
  // Shown until all four are done: wait for the card the answer makes (the callers assert the steps, or [] once done).
  // test-guard: a wait, not an assertion; the returned steps are what the tests assert.
  if (done.length < 4) await page.getByRole('list', { name: 'First steps' }).waitFor();
  return page
    .getByRole('list', { name: 'First steps' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => [item.getAttribute('data-step') ?? '', item.getAttribute('data-done') === 'true'] as [string, boolean]));
}

/** Whether keyboard focus is inside the screen's result panel (not on the page body). */
const focusInResultPanel = (page: Page) =>
  page.evaluate(() => Boolean((globalThis as any).document.activeElement?.closest('[data-testid="result-panel"]')));

describe("a new seller's first hour", () => {
  it('shows the four steps to a new seller, ticks the product once one is uploaded, and the library tile is its thumbnail', async () => {
    const { page, errors } = session;
    expect(await firstSteps(page)).toEqual([
      ['product', false],
      ['on-model-photo', false],
      ['packshot', false],
      ['video', false],
    ]);
    await page.getByTestId('first-steps').getByRole('link', { name: 'Open Clothing' }).waitFor();

    const item = await addClothingItem(twin().apiUrl, user, await tshirtPhoto(1200, 1400), ITEM);
    expect((await firstSteps(page)).filter(([, done]) => done)).toEqual([['product', true]]);
    await page.getByTestId('first-steps').getByText('1 of 4 done').waitFor();

    // The library's tile loads the thumbnail made at upload, never the original photo.
    await page.goto('/studio/clothing');
    const tile = page.getByRole('list', { name: 'Clothing items' }).getByRole('img', { name: ITEM });
    await expect.poll(() => tile.evaluate((image: any) => image.complete && image.naturalWidth > 0)).toBe(true);
    const loaded = await tile.evaluate((image: any) => ({ src: image.currentSrc as string, width: image.naturalWidth as number }));
    expect(loaded.src).toContain('/thumbnails/');
    expect(loaded.src).not.toContain(item.image_url.split('/').pop()!);
    expect(loaded.width).toBeLessThan(1200);
    expect(errors).toEqual([]);
  });

  it('moves focus to the result after Generate, and ticks the on-model photo', { timeout: 300_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByLabel('Model description').fill('young woman, relaxed pose, soft studio light');
    await page.getByText('1K', { exact: true }).click();
    await page.getByRole('button', { name: 'Generate Image' }).click();
    // While it works, and once the result shows, the keyboard is at the result, not on the page body.
    await expect.poll(() => focusInResultPanel(page)).toBe(true);
    await page.getByTestId('generation-result').waitFor({ timeout: WORK_TIMEOUT });
    expect(await focusInResultPanel(page)).toBe(true);
    expect((await firstSteps(page)).filter(([, done]) => done).map(([step]) => step)).toEqual(['product', 'on-model-photo']);
    expect(errors).toEqual([]);
  });

  it('names packshots in the pickers by product, marketplace and size, two of the same told apart, and ticks the packshot', { timeout: 420_000 }, async () => {
    const { page, errors } = session;
    const [item] = (await api(twin().apiUrl, 'GET', '/clothing-items', { user })).body.items;
    for (let made = 0; made < 2; made++) {
      const started = await api(twin().apiUrl, 'POST', '/generate-packshot', {
        user,
        body: { clothingItemId: item.id, marketplace: 'amazon' },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      await expect
        .poll(async () => (await api(twin().apiUrl, 'GET', `/generations/${started.body.generationId}`, { user })).body.status, { timeout: WORK_TIMEOUT })
        .toBe('complete');
    }
    await page.goto('/studio/generate/upscale');
    await page.getByRole('tab', { name: 'Past results' }).click();
    const results = page.getByRole('radiogroup', { name: 'Past results' }).getByRole('radio');
    await expect.poll(() => results.count()).toBe(3);
    const names = await results.evaluateAll((radios) => radios.map((radio) => radio.getAttribute('aria-label') ?? ''));
    const packshots = names.filter((name) => name.includes('Packshot'));
    expect(packshots).toHaveLength(2);
    for (const name of packshots) expect(name).toMatch(new RegExp(`^${ITEM} · Packshot for Amazon main image · 2000×2000 · .+`));
    expect(new Set(packshots).size).toBe(2);
    expect(names.filter((name) => /Packshot amazon|google-shopping/.test(name))).toEqual([]);
    expect((await firstSteps(page)).filter(([, done]) => done).map(([step]) => step)).toEqual(['product', 'on-model-photo', 'packshot']);
    expect(errors).toEqual([]);
  });

  it('says once under a 3-video result that it is a preview, and hides the steps once the video is made', { timeout: 600_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: await tshirtPhoto(600, 700) });
    await page.getByRole('button', { name: '360 Spin', exact: true }).click();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '1:1', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '3', exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await expect.poll(() => focusInResultPanel(page)).toBe(true);
    const panel = page.getByTestId('result-panel');
    await panel.getByLabel('Generated video 3').waitFor({ timeout: VIDEO_TIMEOUT });
    expect(await panel.locator('video').count()).toBe(3);
    expect(await panel.getByTestId('engine-note').count()).toBe(1);
    expect(await focusInResultPanel(page)).toBe(true);
    // All four done: the steps make way.
    await expect.poll(async () => firstSteps(page), { timeout: 30_000 }).toEqual([]);
    expect(await page.getByTestId('first-steps').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('brings the finished batch into view with one toast, and says nothing again when the seller comes back', { timeout: 300_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByRole('button', { name: 'Front', exact: true }).click();
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await page.getByTestId('batch-entry').first().waitFor();
    await page.getByLabel('Photo size').selectOption('1k');
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    const finished = page.getByRole('heading', { name: 'Batch finished' });
    await finished.waitFor({ timeout: WORK_TIMEOUT });
    await toast(page, BATCH_MESSAGES.complete).waitFor();
    // The panel is scrolled into view (it sits below the three columns) and its title has the focus.
    await expect.poll(async () => {
      const box = await finished.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= DESKTOP.height;
    }).toBe(true);
    expect(await finished.evaluate((heading) => heading === (globalThis as any).document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Download all (zip)' }).waitFor();
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: BATCH_MESSAGES.complete }).count()).toBe(1);

    // Back on the screen later: the finished batch is shown, without its toast again.
    await page.goto('/dashboard');
    await page.goto('/studio/generate/batch-generation');
    await finished.waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1_500);
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: BATCH_MESSAGES.complete }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps a refused portrait\'s reason on the form after its toast has gone', { timeout: 300_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/models');
    await page.getByRole('button', { name: 'New Model' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Nadia');
    await dialog.getByLabel('Model description').fill('woman in her thirties, short dark hair');
    await dialog.getByRole('button', { name: 'Upload a portrait' }).click();
    // A photograph with no face in it.
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'coffee.jpg', mimeType: 'image/jpeg', buffer: await noPerson() });
    await dialog.getByLabel(MODEL_MESSAGES.rightsLabel).check();
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await toast(page, MODEL_MESSAGES.portraitNoFace).waitFor({ timeout: WORK_TIMEOUT });
    await expect.poll(() => page.locator('[data-sonner-toast]').filter({ hasText: MODEL_MESSAGES.portraitNoFace }).count(), { timeout: 30_000 }).toBe(0);
    await dialog.getByRole('alert').filter({ hasText: MODEL_MESSAGES.portraitNoFace }).waitFor({ timeout: 1_000 });
    // Choosing another picture clears it.
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'another.jpg', mimeType: 'image/jpeg', buffer: await tshirtPhoto(500, 600) });
    await expect.poll(() => dialog.getByRole('alert').filter({ hasText: MODEL_MESSAGES.portraitNoFace }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it('shows each price with its credits and price on a phone, without sideways scrolling', async () => {
    const { page, errors } = session;
    await page.setViewportSize(PHONE);
    try {
      await page.goto('/dashboard/prices');
      const tiers = (await api(twin().apiUrl, 'GET', '/pricing-tiers')).body.items as { display_name: string }[];
      const cards = page.getByRole('list', { name: 'Prices' }).getByRole('listitem');
      await expect.poll(() => cards.count()).toBe(tiers.length);
      for (const card of await cards.all()) {
        for (const column of ['Credits', 'Price']) {
          const value = card.locator('dt', { hasText: new RegExp(`^${column}$`) }).locator('xpath=following-sibling::dd[1]');
          const box = await value.boundingBox();
          expect(box, `${await card.innerText()}: ${column}`).not.toBeNull();
          expect(box!.x >= 0 && box!.x + box!.width <= PHONE.width, `${column} inside the screen`).toBe(true);
          expect((await value.innerText()).trim()).not.toBe('');
        }
      }
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(errors).toEqual([]);
  });
});
