// Batch Generation in real Chromium against the local twin: the client checks with the specification's messages, a
// two-entry batch built and kept across a reload, submitted, followed live to its photos and the final toast, and
// downloaded as a zip that lists the photos; then a batch with one injected failure ends with the destructive
// 'Batch Generation Complete with Errors'. A finished on-model photo's "Add to batch" opens the screen with that photo
// chosen, and a batch of it runs to completion.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../lambdas/contracts/batch.js';
import { randomUUID } from 'node:crypto';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { readZip } from '../support/zip.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

let session: TestPage;
const email = uniqueEmail('batch.user');
const ITEMS = ['Linen shirt', 'Red tee'];
const BATCH_TIMEOUT = 150_000;

async function addEntry(page: Page, item: string, angles: string[], options: { prompt?: string; backdrop?: string } = {}): Promise<void> {
  await page.getByRole('radio', { name: item, exact: true }).click();
  if (options.prompt) await page.getByLabel('Prompt').fill(options.prompt);
  for (const angle of angles) await page.getByRole('button', { name: angle, exact: true }).click();
  if (options.backdrop) await page.getByRole('radio', { name: options.backdrop }).click();
  await page.getByRole('button', { name: 'Add to Batch' }).click();
}

useSignedInPage(email, (signedIn) => (session = signedIn), {
  // Library items, added through the API as the Clothing Manager would (that screen has its own tests).
  prepare: async () => {
    const user = await signIn(twin(), email);
    for (const name of ITEMS) await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), name);
  },
});

describe('batch generation', () => {
  it('checks on the client with the specification messages before anything is sent', async () => {
    const { page } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    expect(await page.getByLabel('Prompt').inputValue()).toBe('young female model');
    expect(await page.getByRole('radio', { name: 'white' }).getAttribute('aria-checked')).toBe('true');

    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await toast(page, BATCH_MESSAGES.selectItem).waitFor();
    await page.getByRole('radio', { name: ITEMS[0], exact: true }).click();
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await toast(page, BATCH_MESSAGES.selectAngle).waitFor();
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    await toast(page, BATCH_MESSAGES.empty).waitFor();

    // Six angles cost 6 credits (the server's batch tier): more than the 5 sign-up credits.
    await addEntry(page, ITEMS[0]!, ['Product', 'Front', 'Back', 'Full Body', 'Mid-shot', 'Side']);
    await page.getByTestId('batch-total-credits').filter({ hasText: '6 credits' }).waitFor();
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    await toast(page, 'You need 6 credits but only have 5').waitFor();
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByTestId('batch-photo-count').filter({ hasText: '0' }).waitFor();
    expect(await page.getByTestId('batch-entry').count()).toBe(0);
  });

  it('keeps a two-entry draft across a reload, runs it live to its photos and the final toast, and zips it', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await addEntry(page, ITEMS[0]!, ['Front', 'Back']);
    await addEntry(page, ITEMS[1]!, ['Product', 'Side'], { backdrop: 'sky', prompt: 'tall male model' });
    await page.getByTestId('batch-total-credits').filter({ hasText: '4 credits' }).waitFor();

    await page.reload();
    await page.getByTestId('batch-entry').nth(1).waitFor();
    expect(await page.getByTestId('batch-entry').allInnerTexts()).toEqual([
      expect.stringMatching(/Linen shirt[\s\S]*young female model[\s\S]*#FFFFFF[\s\S]*Front, Back/),
      expect.stringMatching(/Red tee[\s\S]*tall male model[\s\S]*#D6E6F4[\s\S]*Product, Side/),
    ]);
    await page.getByTestId('batch-photo-count').filter({ hasText: '4' }).waitFor();

    await page.getByLabel('Photo size').selectOption('1k');
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    // The draft is cleared and the balance reloaded at once; the running batch shows its progress bar.
    await page.getByTestId('batch-photo-count').filter({ hasText: /^0$/ }).waitFor();
    await page.getByText('You have 1').waitFor();
    const bar = page.getByRole('progressbar', { name: 'Batch progress' });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuemax')).toBe('4');
    await page.getByTestId('batch-progress').filter({ hasText: '4 done · 0 failed · 4 in all' }).waitFor({ timeout: BATCH_TIMEOUT });
    expect(await bar.getAttribute('aria-valuenow')).toBe('4');
    await toast(page, BATCH_MESSAGES.complete).waitFor();
    expect(await page.locator('[data-testid="batch-photo"][data-status="complete"] img').count()).toBe(4);
    await page.getByRole('img', { name: 'Red tee, Side' }).waitFor();

    // The zip is built by a workflow (a worker started cold, beside the batch's last renders): it can outlast
    // Playwright's 30 s default on a loaded 2-core machine, so the download is awaited as long as the batch itself.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: BATCH_TIMEOUT }),
      page.getByRole('button', { name: 'Download all (zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^batch-[0-9a-z]{8}\.zip$/);
    const files = readZip(await readFile(await download.path()));
    expect([...files.keys()]).toEqual(['manifest.csv', 'linen-shirt-front-720x1280.png', 'linen-shirt-back-720x1280.png', 'red-tee-product-720x1280.png', 'red-tee-side-720x1280.png']);
    expect(files.get('manifest.csv')!.toString('utf8')).toContain('2,Red tee,Side,#D6E6F4,complete,red-tee-side-720x1280.png,');
    expect(errors).toEqual([]);
  });

  it('ends a batch with a failed photo with the destructive toast, and the history lists batch photos with entry and angle', async () => {
    const { page } = session;
    const user = await signIn(twin(), email);
    await api(twin().apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 10 }, headers: { 'idempotency-key': randomUUID() } });
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    // The batch of the test before is shown until it is closed.
    const close = page.getByRole('button', { name: 'Close', exact: true });
    if (await close.isVisible()) await close.click();
    await addEntry(page, ITEMS[1]!, ['Front', 'Back'], { prompt: 'young female model [local-engine: fail Back]' });
    await page.getByLabel('Photo size').selectOption('1k');
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    const finalToast = toast(page, BATCH_MESSAGES.completeWithErrors);
    await finalToast.waitFor({ timeout: BATCH_TIMEOUT });
    expect(await finalToast.getAttribute('data-type')).toBe('error');
    expect(await finalToast.innerText()).toContain('1 failed and its credit was refunded');
    await page.locator('[data-testid="batch-photo"][data-status="failed"]').filter({ hasText: BATCH_MESSAGES.photoFailed }).waitFor();

    await page.goto('/studio/generations');
    await page.getByRole('tab', { name: 'Batch' }).click();
    await page.getByTestId('generation-row').filter({ hasText: 'Failed' }).waitFor();
    const rows = await page.getByTestId('generation-row').allInnerTexts();
    expect(rows.every((row) => row.startsWith('Batch · '))).toBe(true);
    expect(rows.some((row) => /Batch · Back[\s\S]*Entry 1 · Red tee[\s\S]*Failed/.test(row))).toBe(true);
    expect(rows.some((row) => /Batch · Front[\s\S]*Entry 1 · Red tee[\s\S]*Complete/.test(row))).toBe(true);
  });

  it('turns a finished on-model photo into a batch: Add to batch opens the screen with it chosen, and the batch runs', async () => {
    const { page, errors } = session;
    // A batch shown from an earlier test is closed first, so its toast is not taken for this one's.
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    const close = page.getByRole('button', { name: 'Close', exact: true });
    if (await close.isVisible()) await close.click();

    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: ITEMS[0], exact: true }).click();
    await page.getByLabel('Model description').fill('young female model, relaxed pose');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByTestId('generation-result').waitFor({ timeout: 120_000 });

    await page.getByRole('navigation', { name: 'Next steps' }).getByRole('link', { name: /Add to batch/ }).click();
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    const generationId = /\/studio\/generate\/batch-generation\?source=generation%3A([\w-]+)$/.exec(page.url())?.[1];
    expect(generationId, page.url()).toBeDefined();
    // The photo is the chosen image, among the past results; no library item is.
    const chosen = page.getByRole('radiogroup', { name: 'Past results' }).getByRole('radio', { checked: true });
    await chosen.waitFor();
    expect(await chosen.count()).toBe(1);
    expect(await page.getByRole('radiogroup', { name: 'Clothing items' }).getByRole('radio', { checked: true }).count()).toBe(0);

    for (const angle of ['Front', 'Side']) await page.getByRole('button', { name: angle, exact: true }).click();
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await page.getByTestId('batch-entry').filter({ hasText: /Image from [\s\S]*Front, Side/ }).waitFor();
    await page.getByTestId('batch-total-credits').filter({ hasText: '2 credits' }).waitFor();

    await page.getByLabel('Photo size').selectOption('1k');
    const [sent] = await Promise.all([
      page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/generate-batch')),
      page.getByRole('button', { name: 'Generate Batch' }).click(),
    ]);
    const body = sent.postDataJSON() as { batchItems: Record<string, unknown>[] };
    expect(body.batchItems).toEqual([expect.objectContaining({ generationId, cameraAngles: ['Front', 'Side'] })]);
    expect(body.batchItems[0]).not.toHaveProperty('clothingItemId');

    await page.getByTestId('batch-progress').filter({ hasText: '2 done · 0 failed · 2 in all' }).waitFor({ timeout: BATCH_TIMEOUT });
    await toast(page, BATCH_MESSAGES.complete).waitFor();
    expect(await page.locator('[data-testid="batch-photo"][data-status="complete"] img').count()).toBe(2);
    await page.getByRole('img', { name: /^Image from .+ UTC, Side$/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
