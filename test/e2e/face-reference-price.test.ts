// The price shown before submit on a FASHN deployment (a twin of this file's own with PROVIDER_IMAGE=fashn; nothing is
// generated, so FASHN is never called): picking a saved model with a reference portrait shows the face-reference
// tier's price on Image Generation and, per photo × photos, on Batch; a model without a portrait shows the normal one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { uploadFile } from '../support/uploads.js';
import { createUser } from '../support/users.js';
import { DESKTOP, ensureWebBuilt, launchChromium, signInInUi } from './harness.js';
import { portraitPhoto } from '../fixtures/faces.js';

const ITEM = 'Linen shirt';
let browser: Browser;
let twin: Twin;
let dataDir: string;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureWebBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-face-price-e2e-'));
  // A FASHN deployment's on-model configuration; its address is never reached, as nothing is generated.
  Object.assign(process.env, { PROVIDER_IMAGE: 'fashn', FASHN_API_URL: 'http://127.0.0.1:9', FASHN_API_KEY: 'unused' });
  twin = await startTwin({ dataDir, webRoot: resolve(import.meta.dirname, '../../web/dist') });
  const user = await createUser(twin.info);
  const portrait = await portraitPhoto();
  const imageKey = await uploadFile(twin.info, user, '/models/upload-url', portrait, 'maya.jpg');
  const models = [
    { name: 'Maya', description: 'woman with curly black hair', imageKey, rightsConfirmed: true },
    { name: 'Leo', description: 'man with short grey hair' },
  ];
  for (const body of models) {
    const created = await api(twin.apiUrl, 'POST', '/models', { user, body, headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
  }
  await addClothingItem(twin.apiUrl, user, await tshirtPhoto(600, 700), ITEM);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP, baseURL: twin.webUrl });
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await signInInUi(page, user.email, user.password);
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await twin?.stop();
  for (const name of ['PROVIDER_IMAGE', 'FASHN_API_URL', 'FASHN_API_KEY']) delete process.env[name];
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const chooseModel = (label: string) => page.getByLabel('Model', { exact: true }).selectOption({ label });

describe("the price of a saved model's portrait, before submit", () => {
  it('Image Generation shows the face-reference price for a portraited model, the image price otherwise', async () => {
    await page.goto('/studio/generate/image-generation');
    await page.getByText('Cost: 1 credit').waitFor();
    await chooseModel('Maya');
    await page.getByText('Cost: 4 credits').waitFor();
    await chooseModel('Leo');
    await page.getByText('Cost: 1 credit').waitFor();
    await chooseModel('Describe one');
    await page.getByText('Cost: 1 credit').waitFor();
  });

  it('Batch shows per photo × photos at the face-reference price for a portraited model', async () => {
    // Each entry keeps its own model: the price of its photos follows that model.
    await page.goto('/studio/generate/batch-generation');
    const total = page.getByTestId('batch-total-credits');
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    for (const angle of ['Front', 'Back']) await page.getByRole('button', { name: angle, exact: true }).click();
    await chooseModel('Maya');
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await total.filter({ hasText: '8 credits' }).waitFor();
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    for (const angle of ['Front', 'Back']) await page.getByRole('button', { name: angle, exact: true }).click();
    await chooseModel('Leo');
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await total.filter({ hasText: '10 credits' }).waitFor();
    expect(errors).toEqual([]);
  });
});
