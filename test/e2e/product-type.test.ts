// Product type wherever a product is named, in real Chromium against the local twin: New Item stores the upload
// screen's choice (Jewelry here), Edit changes it, Image Generation preselects the chosen item's type, and every batch
// entry carries its item's type, can change it, and its photos are made for that type (a necklace framed at the
// neckline, not stretched across the torso like a garment).
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { signIn, type TestUser } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('product.type');
let session: TestPage;
let user: TestUser;
let photo: Buffer;
useSignedInPage(email, (signedIn) => (session = signedIn), {
  prepare: async () => {
    user = await signIn(twin(), email);
    photo = await tshirtPhoto(600, 700);
  },
});

async function newItem(page: Page, name: string, productType?: 'Jewelry' | 'Clothing'): Promise<void> {
  await page.getByRole('button', { name: 'New Item' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Item' });
  await dialog.getByLabel('Image', { exact: true }).setInputFiles({ name: 'product.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('product');
  await dialog.getByLabel('Name').fill(name);
  if (productType) await dialog.getByLabel('Product type').selectOption({ label: productType });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await toast(page, 'Item added').waitFor();
  await dialog.waitFor({ state: 'hidden' });
}

const itemsByName = async () => {
  const { body } = await api(twin().apiUrl, 'GET', '/clothing-items?active=true', { user });
  return new Map((body.items ?? body).map((item: { name: string; product_type: string }) => [item.name, item.product_type]));
};

describe('product type', () => {
  it('is stored on a library item from the upload screen, editable, and preselected by Image Generation', async () => {
    const { page, errors } = session;
    await page.goto('/studio/clothing');
    await newItem(page, 'Pearl necklace', 'Jewelry');
    await newItem(page, 'Linen shirt');
    expect(Object.fromEntries(await itemsByName())).toMatchObject({ 'Pearl necklace': 'jewelry', 'Linen shirt': 'clothing' });

    // Edit changes it; the details dialog says it.
    await page.getByRole('button', { name: 'Actions for Linen shirt', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit item' });
    await expect.poll(() => edit.getByLabel('Product type').inputValue()).toBe('clothing');
    await edit.getByLabel('Product type').selectOption({ label: 'Jewelry' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Item updated').waitFor();
    await expect.poll(async () => (await itemsByName()).get('Linen shirt')).toBe('jewelry');
    await page.getByRole('button', { name: 'Actions for Linen shirt', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await edit.getByLabel('Product type').selectOption({ label: 'Clothing' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await itemsByName()).get('Linen shirt')).toBe('clothing');

    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: 'Pearl necklace', exact: true }).click();
    await expect.poll(() => page.getByLabel('Product type').inputValue()).toBe('jewelry');
    await page.getByRole('radio', { name: 'Linen shirt', exact: true }).click();
    await expect.poll(() => page.getByLabel('Product type').inputValue()).toBe('clothing');
    expect(errors).toEqual([]);
  });

  it('gives every batch entry its item’s type, lets it be changed, and makes each photo for its type', { timeout: 240_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    for (let entry = 0; entry < 2; entry++) {
      await page.getByRole('radio', { name: 'Pearl necklace', exact: true }).click();
      await expect.poll(() => page.getByLabel('Product type', { exact: true }).inputValue()).toBe('jewelry');
      await page.getByRole('button', { name: 'Front', exact: true }).click();
      await page.getByRole('button', { name: 'Add to Batch' }).click();
    }
    const first = page.getByLabel('Product type of entry 1 (Pearl necklace)');
    const second = page.getByLabel('Product type of entry 2 (Pearl necklace)');
    expect(await first.inputValue()).toBe('jewelry');
    await second.selectOption({ label: 'Clothing' });
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    await toast(page, 'Batch started').waitFor();

    const { body: list } = await api(twin().apiUrl, 'GET', '/batches', { user });
    const batchId: string = (list.items ?? list)[0].id;
    let batch: any;
    await expect
      .poll(async () => (batch = (await api(twin().apiUrl, 'GET', `/batches/${batchId}`, { user })).body).status, { timeout: 200_000, interval: 1_000 })
      .toBe('complete');
    expect(batch.entries.map((entry: { productType: string }) => entry.productType)).toEqual(['jewelry', 'clothing']);
    expect(batch.photos.map((photoRow: { generation: { status: string } }) => photoRow.generation.status)).toEqual(['complete', 'complete']);
    // The same item, angle, prompt and backdrop: only the product type differs, and so do the pictures.
    const pictures = await Promise.all(
      batch.photos.map(async (photoRow: { generation: { result_url: string } }) => Buffer.from(await (await fetch(photoRow.generation.result_url)).arrayBuffer())),
    );
    expect(pictures[0]!.equals(pictures[1]!)).toBe(false);
    expect(errors).toEqual([]);
  });
});
