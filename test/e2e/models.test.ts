// Saved models in real Chromium against the local twin: a model is saved on the Models screen with an uploaded
// portrait (the rights confirmation asked first), chosen in Image Generation and in a two-entry batch, and seen on
// the results: the preview names it, the batch shows its portrait beside the progress, History names it on each row.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Route } from 'playwright';
import { describe, expect, it } from 'vitest';
import { MODEL_MESSAGES } from '../../lambdas/contracts/models.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';
import { portraitPhoto } from '../fixtures/faces.js';

let session: TestPage;
const email = uniqueEmail('models.user');
const ITEMS = ['Linen shirt', 'Red tee'];
const MODEL = { name: 'Maya', description: 'woman in her late twenties, warm brown skin, curly black hair, relaxed smile' };
const WORK_TIMEOUT = 150_000;

useSignedInPage(email, (signedIn) => (session = signedIn), {
  prepare: async () => {
    const user = await signIn(twin(), email);
    for (const name of ITEMS) await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), name);
  },
});

describe('saved models', () => {
  it('saves a model with an uploaded portrait once the rights are confirmed, and finds it by search', async () => {
    const { page } = session;
    const portraitFile = join(mkdtempSync(join(tmpdir(), 'modelloop-portrait-')), 'maya.jpg');
    writeFileSync(portraitFile, await portraitPhoto());

    await page.goto('/studio/models');
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    await page.getByText('No models yet').waitFor();
    await page.getByRole('button', { name: 'New Model' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(MODEL.name);
    await dialog.getByLabel('Model description').fill(MODEL.description);
    await dialog.getByRole('button', { name: 'Upload a portrait' }).click();
    await dialog.locator('input[type="file"]').setInputFiles(portraitFile);
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await dialog.getByText(MODEL_MESSAGES.confirmRights).waitFor();
    await dialog.getByLabel(MODEL_MESSAGES.rightsLabel).check();
    // The models list is not read again until the card is checked: the card comes from the save's own answer.
    const heldListReads: Route[] = [];
    let holding = true;
    const holdListReads = (route: Route) => (holding && route.request().method() === 'GET' ? void heldListReads.push(route) : route.fallback());
    await page.route('**/api/models', holdListReads);
    await dialog.getByRole('button', { name: 'Save model' }).click();
    await toast(page, 'Model saved').waitFor();

    const card = page.getByTestId('model-card').filter({ hasText: MODEL.name });
    await card.getByRole('img', { name: MODEL.name }).waitFor();
    // The new card shows its portrait at once, without a reload (the photograph is 240 px wide).
    await expect
      .poll(() => card.getByRole('img', { name: MODEL.name }).evaluate((image: any) => image.complete && image.naturalWidth), { timeout: 10_000 })
      .toBe(240);
    await card.getByText('Uploaded portrait').waitFor();
    holding = false;
    for (const route of heldListReads) await route.continue();
    await page.unroute('**/api/models', holdListReads);
    await page.getByLabel('Search').fill('curly');
    await page.getByTestId('models-count').filter({ hasText: 'Showing 1 of 1 models' }).waitFor();
    await page.getByLabel('Search').fill('blond');
    await page.getByText('No models found').waitFor();
  });

  it('makes an image with it in Image Generation, and the result names it', async () => {
    const { page } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: ITEMS[0], exact: true }).click();
    await page.getByLabel('Model', { exact: true }).selectOption({ label: MODEL.name });
    // The description field gives way to the chosen model's picture and words.
    await page.getByTestId('chosen-model').filter({ hasText: MODEL.description }).waitFor();
    expect(await page.getByLabel('Model description').count()).toBe(0);
    await page.getByText('1K', { exact: true }).click();
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByTestId('generation-result').waitFor({ timeout: WORK_TIMEOUT });
    await page.getByTestId('result-model').filter({ hasText: `Model: ${MODEL.name}` }).waitFor();
  });

  it('runs a two-entry batch with it, showing its portrait beside the progress, and History names it on every photo', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByLabel('Model', { exact: true }).selectOption({ label: MODEL.name });
    for (const item of ITEMS) {
      await page.getByRole('radio', { name: item, exact: true }).click();
      await page.getByRole('button', { name: 'Front', exact: true }).click();
      await page.getByRole('button', { name: 'Add to Batch' }).click();
    }
    await page.getByTestId('batch-photo-count').filter({ hasText: '2' }).waitFor();
    await page.getByLabel('Photo size').selectOption('1k');
    await page.getByRole('button', { name: 'Generate Batch' }).click();

    const beside = page.getByTestId('batch-model');
    await beside.getByRole('img', { name: MODEL.name }).waitFor();
    await beside.getByText(MODEL.name).waitFor();
    await page.getByTestId('batch-progress').filter({ hasText: '2 done · 0 failed · 2 in all' }).waitFor({ timeout: WORK_TIMEOUT });

    await page.goto('/studio/generations');
    await page.getByTestId('generation-row').nth(2).waitFor();
    // The image and both batch photos: each row says which saved model made it.
    await expect.poll(() => page.getByTestId('generation-saved-model').filter({ hasText: `Model: ${MODEL.name}` }).count(), { timeout: 30_000 }).toBe(3);
    expect(errors).toEqual([]);
  });
});
