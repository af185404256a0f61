// Publishing to Shopify in real Chromium against the twin and its Shopify stand-in: a seller connects their shop in
// Settings → Shops (Shopify's install screen, then back), publishes a packshot and then a video to one product from
// History, finds the product by its SKU with its thumbnail, and sees the product's media in that order in the shop and
// the "Published to" link on each result.
import { describe, expect, it } from 'vitest';
import { CONNECT_OUTCOMES } from '../../lambdas/contracts/shopify.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { newShop, shopState } from '../support/shopify.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { generateVideo, pollUntilDone } from '../support/video.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

let session: TestPage;
const email = uniqueEmail('shopify.seller');
const TIMEOUT = 150_000;
const PRODUCT = { title: 'Red logo T-shirt', sku: 'TEE-RED-01' };
let shop: string;
let productId: string;
let packshotId: string;
let videoId: string;

useSignedInPage(email, (signedIn) => (session = signedIn), {
  // The shop, and a packshot and a video already made through the API as the studio's screens make them.
  prepare: async () => {
    const created = await newShop(twin(), [PRODUCT, { title: 'Navy hoodie', sku: 'HOOD-NAVY-02' }]);
    shop = created.shop;
    productId = created.products[0]!.id;
    const user = await signIn(twin(), email);
    const photo = await tshirtPhoto(600, 700);
    const item = await addClothingItem(twin().apiUrl, user, photo, 'Red logo T-shirt');
    const packshot = await api(twin().apiUrl, 'POST', '/generate-packshot', { user, body: { clothingItemId: item.id, marketplace: 'shopify' }, headers: { 'idempotency-key': crypto.randomUUID() } });
    if (packshot.status !== 200) throw new Error(`generate-packshot answered ${packshot.status}: ${JSON.stringify(packshot.body)}`);
    packshotId = packshot.body.generationId;
    const video = await generateVideo(twin().apiUrl, user, photo, { duration: 5, aspect_ratio: '9:16' });
    if (video.status !== 200) throw new Error(`generate-video answered ${video.status}: ${JSON.stringify(video.body)}`);
    expect((await pollUntilDone(twin().apiUrl, user, video.body)).status).toBe('complete');
    videoId = `${video.body.jobId}-1`;
    const deadline = Date.now() + TIMEOUT;
    while ((await api(twin().apiUrl, 'GET', `/generations/${packshotId}`, { user })).body.status === 'processing' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 300));
  },
});

describe('publishing to Shopify', () => {
  it('connects the shop through Shopify’s install screen', async () => {
    const { page, errors } = session;
    await page.goto('/settings#shops');
    await page.getByRole('heading', { name: 'Shops' }).waitFor();
    await page.getByLabel('Your Shopify shop').fill(shop.replace('.myshopify.com', ''));
    await page.getByRole('button', { name: 'Connect Shopify' }).click();
    // Shopify's install screen (the stand-in's), then back to Settings.
    await page.getByRole('heading', { name: 'Install app' }).waitFor();
    await page.getByRole('button', { name: 'Install' }).click();
    await toast(page, CONNECT_OUTCOMES.connected).waitFor({ timeout: TIMEOUT });
    const list = page.getByRole('list', { name: 'Connected shops' });
    await list.getByText(shop).waitFor();
    expect(await list.innerText()).toContain('Connected');
    expect(new URL(page.url()).searchParams.get('shopify')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('publishes a packshot, then a video, to one product; the shop shows them in that order and each result links to it', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generations');
    const rowOf = (label: string) => page.getByTestId('generation-row').filter({ has: page.getByText(label, { exact: true }) });
    for (const label of ['Packshot', 'Video']) {
      const row = rowOf(label);
      await row.waitFor({ timeout: TIMEOUT });
      await row.getByRole('button', { name: 'Publish to Shopify' }).click();
      const dialog = page.getByRole('dialog', { name: 'Publish to Shopify' });
      await dialog.getByRole('searchbox', { name: 'Product' }).fill(PRODUCT.sku);
      const option = dialog.getByRole('button', { name: new RegExp(PRODUCT.title) });
      await option.waitFor();
      expect(await option.locator('img').getAttribute('src')).toMatch(/cdn\.shopify\.com/);
      await option.click();
      await dialog.getByRole('button', { name: 'Publish' }).click();
      const outcome = page.getByTestId('publication-outcome');
      await outcome.waitFor({ timeout: TIMEOUT });
      expect(await outcome.innerText()).toBe('Published 1 of 1 to Shopify.');
      await page.keyboard.press('Escape');
      await row.getByTestId('published-to').waitFor({ timeout: TIMEOUT });
    }

    const media = (await shopState(twin(), shop)).products.find((product) => product.id === productId)!.media;
    expect(media.map((item) => [item.filename, item.mediaContentType])).toEqual([
      [`modelloop-${packshotId}.jpg`, 'IMAGE'],
      [`modelloop-${videoId}.mp4`, 'VIDEO'],
    ]);

    const link = rowOf('Packshot').getByTestId('published-to').getByRole('link', { name: PRODUCT.title });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`/${shop}/admin/products/${productId.split('/').pop()}$`));
    const admin = await page.context().newPage();
    await admin.goto(href!);
    expect(await admin.getByRole('list', { name: 'Media' }).innerText()).toMatch(new RegExp(`modelloop-${packshotId}\\.jpg[\\s\\S]*modelloop-${videoId}\\.mp4`));
    await admin.close();
    expect(errors).toEqual([]);
  });
});
