// The rough edges of a newcomer's tour, each as the seller meets it, in real Chromium against the local twin (desktop,
// and a phone where layout is involved): receipts and a second Buy, Manage Billing, the raw-key banner after a revoke,
// Cancelled videos, model names and batch groups in History with its compact row menu, Retry failed, "1 credit", the
// product-link message, stale error toasts, Usage on a phone, the item dialog's next steps and Watch Demo.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem, onModelPhoto } from '../support/sources.js';
import { signIn, type TestUser } from '../support/users.js';
import { openPage, PHONE, signInInUi, toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('rough.edges');
const ITEM = 'Cotton tee';
let session: TestPage;
let browser: Browser;
let user: TestUser;
let photo: Buffer;
let itemId: string;
useSignedInPage(email, (signedIn, chromium) => ((session = signedIn), (browser = chromium)), {
  fastPolling: true,
  prepare: async () => {
    user = await signIn(twin(), email);
    photo = await tshirtPhoto(600, 700);
    itemId = (await addClothingItem(twin().apiUrl, user, photo, ITEM)).id;
  },
});

async function ended(id: string): Promise<{ status: string }> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const { body } = await api(twin().apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status !== 'processing') return body;
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`generation ${id} did not end`);
}

const spend = (path: string, body: unknown) => api(twin().apiUrl, 'POST', path, { user, body, headers: { 'idempotency-key': randomUUID() } });

const pageWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

describe('rough edges', () => {
  it('lists a purchase under Receipts at once, asks before buying again, and Manage Billing leads to Billing', async () => {
    const { page, errors } = session;
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Manage Billing' }).click();
    await page.waitForURL('**/dashboard/billing');
    await page.getByText('No purchases yet.').waitFor();
    const buy = page.getByRole('button', { name: /^Buy [\d,]+ credits for/ });
    const credits = /^Buy ([\d,]+) credits/.exec((await buy.textContent())!.trim())![1]!;
    await buy.click();
    await toast(page, 'Credits added').waitFor();
    // The receipt is listed as soon as the credits are, without a reload.
    await page.getByTestId('receipts').getByText(credits, { exact: true }).waitFor();
    const balance = await page.getByTestId('billing-balance').textContent();
    await buy.click();
    const again = page.getByRole('alertdialog', { name: 'Buy credits again?' });
    await again.getByText(`You just bought ${credits} credits.`, { exact: false }).waitFor();
    await again.getByRole('button', { name: 'Not now' }).click();
    expect(await page.getByTestId('billing-balance').textContent()).toBe(balance);
    expect(errors).toEqual([]);
  });

  it('takes the raw-key banner away when that key is revoked', async () => {
    const { page } = session;
    await page.goto('/api');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Key name').fill('Shop sync');
    await expect.poll(() => page.getByLabel('Key name').inputValue()).toBe('Shop sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-api-key').waitFor();
    await page.getByRole('button', { name: /^Revoke / }).first().click();
    await page.getByRole('alertdialog', { name: 'Revoke this key?' }).getByRole('button', { name: /^Revoke/ }).click();
    await toast(page, 'Key revoked').waitFor();
    await expect.poll(() => page.getByTestId('new-api-key').count()).toBe(0);
  });

  it('says "1 credit", asks for a web address in product-link import, and clears stale error toasts after an upload', async () => {
    const { page } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByRole('button', { name: 'Front', exact: true }).click();
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await expect.poll(() => page.getByTestId('batch-total-credits').textContent()).toBe('1 credit');
    await page.getByRole('button', { name: 'Clear all' }).click();

    await page.goto('/studio/generate/image-generation');
    await page.getByRole('tab', { name: 'Product link' }).click();
    await page.getByRole('textbox', { name: 'Product link' }).fill('linen shirt blue');
    await page.getByRole('button', { name: 'Find images' }).click();
    await page.getByText('Enter a web address, e.g. https://…').waitFor();

    await page.goto('/studio/clothing');
    await page.getByRole('button', { name: 'New Item' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Item' });
    await dialog.getByLabel('Image', { exact: true }).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await toast(page, 'Invalid file type').waitFor();
    await dialog.getByLabel('Image', { exact: true }).setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('tee');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toast(page, 'Item added').waitFor();
    // Gone at once (a toast on its way out is marked data-removed), not when its own five seconds run out.
    const stale = page.locator('[data-sonner-toast]:not([data-removed="true"])').filter({ hasText: 'Invalid file type' });
    await expect.poll(() => stale.count(), { timeout: 1_500, interval: 100 }).toBe(0);
  });

  it('offers Make an image, Make a video and Add to batch in the item details dialog', async () => {
    const { page } = session;
    await page.goto('/studio/clothing');
    await page.getByRole('button', { name: `Actions for ${ITEM}`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: ITEM });
    for (const action of ['Make a video', 'Add to batch']) await details.getByRole('link', { name: action }).waitFor();
    await details.getByRole('link', { name: 'Make an image' }).click();
    await page.waitForURL('**/studio/generate/image-generation?source=clothing*');
    await expect.poll(() => page.getByRole('radio', { name: ITEM, exact: true }).getAttribute('aria-checked')).toBe('true');
  });

  it('shows a cancelled video as Cancelled, names the same model on complete and failed rows, groups batch photos and keeps a compact row menu', { timeout: 300_000 }, async () => {
    const { page, errors } = session;
    // A video, cancelled from its progress card.
    await page.goto('/studio/generate/video-generation');
    await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Pivot', exact: true }).click();
    await page.getByRole('radio', { name: '16 s' }).check({ force: true });
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel video' }).click();
    await page.getByRole('status').filter({ hasText: 'You cancelled this video' }).waitFor();
    await page.getByRole('list', { name: 'Recent video jobs' }).getByText('cancelled', { exact: true }).waitFor();

    // A complete and a failed image, and a batch whose Back photo fails.
    await onModelPhoto(twin().apiUrl, user, itemId);
    const failed = await spend('/generate-ai-image', { clothingItemId: itemId, prompt: 'young model [local-engine: fail]' });
    expect((await ended(failed.body.generationId)).status).toBe('failed');
    const batch = await spend('/generate-batch', { batchItems: [{ clothingItemId: itemId, cameraAngles: ['Front', 'Back'], prompt: 'young model [local-engine: fail Back]' }] });
    expect(batch.status).toBe(200);
    const batchId: string = batch.body.batchId;
    await expect
      .poll(async () => (await api(twin().apiUrl, 'GET', `/batches/${batchId}`, { user })).body.status, { timeout: 200_000, interval: 1_000 })
      .toBe('complete');

    await page.goto('/studio/generations');
    const rows = page.getByTestId('generation-row');
    await rows.filter({ hasText: 'Cancelled' }).first().waitFor();
    const models = async (status: string) =>
      rows.filter({ hasText: status }).filter({ hasText: 'Image generation' }).getByTestId('generation-model').allTextContents();
    // The same engine's name on a failed and a complete row (with the Preview badge the local engine's results carry).
    await expect.poll(() => models('Failed')).toEqual([expect.stringMatching(/^Preview engine \(no AI\)/)]);
    expect(await models('Complete')).toEqual(await models('Failed'));
    // The batch's two photos stand together under the batch's heading.
    const heading = page.locator('tr[data-testid="row-group"]').filter({ hasText: batchId.slice(0, 8) });
    await heading.waitFor();
    const order = await page.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ((tr as any).dataset.testid === 'row-group' ? 'group' : String((tr as any).textContent).includes('Batch ·') ? 'photo' : 'other')),
    );
    const start = order.indexOf('group');
    expect(order.slice(start, start + 3)).toEqual(['group', 'photo', 'photo']);
    // A compact menu per row: View and one "More actions" button, the next steps inside it.
    const complete = rows.filter({ hasText: 'Complete' }).filter({ hasText: 'Image generation' });
    expect(await complete.getByRole('navigation', { name: 'Next steps' }).count()).toBe(0);
    await complete.getByRole('button', { name: 'More actions' }).click();
    for (const item of ['Download File', 'Edit', 'Upscale', 'Make a video', 'Add to batch']) await page.getByRole('menuitem', { name: item }).waitFor();
    await page.keyboard.press('Escape');

    // Retry failed, from the batch's heading in History: only the failed Back photo, as a new 1-credit batch.
    await heading.getByRole('link', { name: 'Retry failed' }).click();
    await page.waitForURL(`**/studio/generate/batch-generation?batch=${batchId}`);
    await page.getByRole('button', { name: 'Retry failed (1 credit)' }).click();
    await toast(page, 'Batch started').waitFor();
    const { body: list } = await api(twin().apiUrl, 'GET', '/batches', { user });
    const retried = list.items.find((entry: { id: string }) => entry.id !== batchId);
    expect(retried.entries).toMatchObject([{ clothingItemId: itemId, cameraAngles: ['Back'], productType: 'clothing' }]);
    // Charged as any batch: one debit of 1 credit (the photo's own prompt fails it again, and it is refunded again).
    expect(retried.credits_used).toBe(1);
    const { body: ledger } = await api(twin().apiUrl, 'GET', '/credit-transactions', { user });
    expect(ledger.items.filter((entry: { transaction_type: string; description: string }) => entry.transaction_type === 'debit' && entry.description.startsWith('Batch generation (1 photo)'))).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('shows Usage as cards on a phone, every column inside the screen', async () => {
    const phone = await openPage(browser, PHONE);
    try {
      await signInInUi(phone.page, email);
      await phone.page.goto('/dashboard/usage');
      const cards = phone.page.getByRole('list', { name: 'Credit transactions, newest first' });
      await cards.getByText('Balance after').first().waitFor();
      expect(await phone.page.getByRole('table').first().isVisible()).toBe(false);
      expect(await pageWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
      const box = await cards.getByText('Balance after').first().boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await phone.close();
    }
  });

  it('plays the studio’s own looping demo video from Watch Demo', async () => {
    const { page } = session;
    await page.goto('/');
    await page.getByRole('button', { name: 'Watch Demo' }).click();
    const video = page.getByLabel('ModelLoop demo: a product photo as a looping model video');
    await video.waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await video.evaluate((element: any) => ({ loop: element.loop, src: new URL(element.src).pathname }))).toEqual({ loop: true, src: '/demo/demo-loop.mp4' });
    await expect.poll(() => video.evaluate((element: any) => element.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  });
});
