// The Clothing Manager in real Chromium against the local twin: uploads straight to s3rver with a progress bar,
// the grid with its signed pictures, search and sort, batch upload (3, then 4), the card menu and its dialogs.
import type { Browser, Page } from 'playwright';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MB } from '../../lambdas/contracts/catalog.js';
import {
  openPage,
  PHONE,
  seriousAxeViolations,
  signUpInUi,
  toast,
  twin,
  uniqueEmail,
  useChromium,
} from './harness.js';

Object.assign(process.env, twin().env);
const clothingRepo = await import('../../lambdas/data/clothing-repo.js');

let browser: Browser;
useChromium((started) => (browser = started));

type Format = 'png' | 'jpeg' | 'webp';
const MIME: Record<Format, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** A real picture file made with sharp: a coloured garment shape on a light backdrop. */
async function imageFile(name: string, format: Format, colour: string, size = { width: 360, height: 480 }) {
  const { width, height } = size;
  const buffer = await sharp({ create: { width, height, channels: 3, background: '#f1f5f9' } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><path d="M${width * 0.3} ${height * 0.1} h${width * 0.4} l${width * 0.15} ${height * 0.8} h-${width * 0.7} z" fill="${colour}"/></svg>`) }])
    .toFormat(format)
    .toBuffer();
  return { name, mimeType: MIME[format], buffer };
}

/** A PNG of noise, big enough that the throttled upload reports progress along the way. */
async function noisyPng(name: string) {
  const buffer = await sharp({ create: { width: 700, height: 700, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** The few browser globals the page functions below use (this tsconfig has no DOM library; the casts vanish in the page). */
interface BrowserElement {
  complete?: boolean;
  naturalWidth?: number;
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  document: {
    body: unknown;
    documentElement: { scrollWidth: number; clientWidth: number };
    querySelector(selector: string): BrowserElement | null;
    querySelectorAll(selector: string): Iterable<BrowserElement>;
  };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
  progressSeen: string[];
}
const grid = (page: Page) => page.getByRole('list', { name: 'Clothing items' });
const cardTitles = (page: Page) => grid(page).getByRole('heading', { level: 3 }).allTextContents();

async function expectCount(page: Page, text: string): Promise<void> {
  await page.getByTestId('clothing-count').filter({ hasText: text }).waitFor();
}

/** Every picture in the grid has loaded from its signed URL. */
async function expectPicturesLoaded(page: Page, expected: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const images = [...(globalThis as unknown as PageGlobals).document.querySelectorAll('[aria-label="Clothing items"] img')];
      return images.length === n && images.every((image) => image.complete && image.naturalWidth! > 0);
    },
    expected,
    { timeout: 15_000 },
  );
}

async function cardAction(page: Page, itemName: string, action: 'View Details' | 'Edit' | 'Delete'): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${itemName}`, exact: true }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Watches a progress bar's values from inside the page, so no value between two polls is missed. */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const browser = globalThis as unknown as PageGlobals;
    const seen: string[] = (browser.progressSeen = []);
    new browser.MutationObserver(() => {
      for (const bar of browser.document.querySelectorAll('[role="progressbar"]')) {
        const text = `${bar.getAttribute('aria-valuenow')}|${bar.getAttribute('aria-valuetext')}`;
        if (seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(browser.document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow', 'aria-valuetext'] });
  });
  return () => page.evaluate(() => (globalThis as unknown as PageGlobals).progressSeen);
}

async function userIdOf(page: Page): Promise<string> {
  const idToken = await page.evaluate(() => {
    const { localStorage: storage } = globalThis as unknown as PageGlobals;
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      if (key?.endsWith('.idToken')) return storage.getItem(key);
    }
    return null;
  });
  return (JSON.parse(Buffer.from(idToken!.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
}

describe('Clothing Manager', () => {
  it('adds an item with a progress bar, shows its picture, searches, sorts, batch uploads, edits and deletes', async () => {
    const { page, errors, close } = await openPage(browser);
    try {
      await signUpInUi(page, uniqueEmail('clothing'));
      await page.goto('/studio/clothing');
      await page.getByRole('heading', { name: 'Clothing Manager' }).waitFor();
      await page.getByRole('heading', { name: 'No clothing items yet' }).waitFor();
      await expectCount(page, 'Showing 0 of 0 items');

      // New Item: the client refuses the wrong type and a too-large file with the specification's messages.
      await page.getByRole('button', { name: 'New Item' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New Item' });
      await dialog.getByLabel('Image', { exact: true }).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
      await expect(toast(page, 'Invalid file type').textContent()).resolves.toContain('Please upload a JPEG, PNG, or WebP image');
      await dialog.getByLabel('Image', { exact: true }).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(13 * MB) });
      await expect(toast(page, 'File too large').textContent()).resolves.toContain('This file is 13 MB. The maximum size is 12 MB.');
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await dialog.getByText('Please select an image to upload').waitFor();

      // A real image, uploaded over a throttled link so the bar moves through intermediate values.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 600 * 1024 });
      const dress = await noisyPng('red-dress.png');
      await dialog.getByLabel('Image', { exact: true }).setInputFiles(dress);
      // The name is taken from the file once its first bytes are checked (an async read).
      await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('red-dress');
      await dialog.getByLabel('Name').fill('  Red summer dress ');
      await dialog.getByLabel('Description (optional)').fill('Cotton, size M');
      const progress = await recordProgress(page);
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await toast(page, 'Item added').waitFor();
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const values = await progress();
      const percents = values.filter((value) => value.includes('Uploading')).map((value) => Number(value.split('|')[0]));
      expect(percents.some((percent) => percent > 0 && percent < 100), values.join(', ')).toBe(true);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(values.at(-1)).toBe('100|Checking the image…');
      await expect(dialog.isVisible()).resolves.toBe(false);

      await expectCount(page, 'Showing 1 of 1 items');
      await expect.poll(() => cardTitles(page)).toEqual(['Red summer dress']);
      await expectPicturesLoaded(page, 1);

      // Batch Upload: none selected is refused; of four files the first three are taken, and the message (the
      // specification's) says which was left out; the three go up with their file names.
      await page.getByRole('button', { name: 'Batch Upload' }).click();
      const batch = page.getByRole('dialog', { name: 'Batch Upload' });
      await batch.getByRole('button', { name: 'Upload', exact: true }).click();
      await batch.getByRole('alert').filter({ hasText: 'Please select at least one image to upload' }).waitFor();
      const files = await Promise.all([
        imageFile('blue-jeans.png', 'png', '#1d4ed8'),
        imageFile('green-kurta.jpg', 'jpeg', '#15803d'),
        imageFile('yellow-saree.webp', 'webp', '#eab308'),
        imageFile('black-scarf.png', 'png', '#111827'),
      ]);
      await batch.getByLabel('Images').setInputFiles(files);
      const leftOut = 'You can upload a maximum of 3 images at once. The first 3 are selected; black-scarf.png was left out.';
      await batch.getByRole('alert').filter({ hasText: leftOut }).waitFor();
      await toast(page, leftOut).waitFor();
      // Each picked file's first bytes are checked before it is listed.
      const selected = batch.getByRole('list', { name: 'Selected images' }).getByRole('listitem');
      await expect.poll(() => selected.count()).toBe(3);
      expect(await selected.evaluateAll((items) => items.map((item) => item.querySelector('.font-medium')?.textContent))).toEqual(['blue-jeans', 'green-kurta', 'yellow-saree']);
      await batch.getByRole('button', { name: 'Upload 3 images' }).click();
      await toast(page, '3 items added').waitFor();
      await expectCount(page, 'Showing 4 of 4 items');
      await expectPicturesLoaded(page, 4);

      // Search by name (and description), then a search that finds nothing.
      const search = page.getByLabel('Search');
      await search.fill('KURTA');
      await expectCount(page, 'Showing 1 of 4 items');
      await expect.poll(() => cardTitles(page)).toEqual(['green-kurta']);
      await search.fill('cotton');
      await expect.poll(() => cardTitles(page)).toEqual(['Red summer dress']);
      await search.fill('velvet');
      await page.getByRole('heading', { name: 'No items found' }).waitFor();
      await expectCount(page, 'Showing 0 of 4 items');
      await search.fill('');
      await expectCount(page, 'Showing 4 of 4 items');

      // Sort: Latest First (the default) ends with the first item; Name A-Z; Most Used after generations.
      await expect.poll(() => cardTitles(page).then((titles) => titles.at(-1))).toBe('Red summer dress');
      await page.getByLabel('Sort by').selectOption({ label: 'Name A-Z' });
      await expect.poll(() => cardTitles(page)).toEqual(['blue-jeans', 'green-kurta', 'Red summer dress', 'yellow-saree']);
      const userId = await userIdOf(page);
      const saree = (await clothingRepo.listItems(userId, { activeOnly: true })).find((item) => item.name === 'yellow-saree')!;
      await clothingRepo.incrementGenerationsCount(userId, saree.id);
      await clothingRepo.incrementGenerationsCount(userId, saree.id);
      await page.reload();
      await expectCount(page, 'Showing 4 of 4 items');
      await page.getByLabel('Sort by').selectOption({ label: 'Most Used' });
      await expect.poll(() => cardTitles(page).then((titles) => titles[0])).toBe('yellow-saree');
      await grid(page).getByText('Used 2 times').waitFor();

      // View Details and Edit from the card menu.
      await cardAction(page, 'Red summer dress', 'View Details');
      const details = page.getByRole('dialog', { name: 'Red summer dress' });
      await expect(details.textContent()).resolves.toMatch(/Cotton, size M.*PNG ·/);
      await page.keyboard.press('Escape');
      await cardAction(page, 'green-kurta', 'Edit');
      const edit = page.getByRole('dialog', { name: 'Edit item' });
      await edit.getByLabel('Name').fill('Green silk kurta');
      await edit.getByLabel('Description (optional)').fill('Festive wear');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Item updated').waitFor();
      await grid(page).getByRole('heading', { name: 'Green silk kurta' }).waitFor();

      // Delete: the confirm prompt first; Cancel keeps the item, a failed delete says so, Delete removes it.
      await cardAction(page, 'blue-jeans', 'Delete');
      const confirm = page.getByRole('alertdialog', { name: 'Delete this item?' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expectCount(page, 'Showing 4 of 4 items');
      await page.route('**/api/clothing-items/*', (route) =>
        route.request().method() === 'DELETE' ? route.fulfill({ status: 503, body: '{}' }) : route.fallback(),
      );
      await cardAction(page, 'blue-jeans', 'Delete');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Failed to delete item').waitFor();
      await expectCount(page, 'Showing 4 of 4 items');
      await page.unroute('**/api/clothing-items/*');
      // By keyboard this time: the menu trigger, the menu, the prompt.
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Actions for blue-jeans', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await toast(page, 'Item deleted').waitFor();
      await expectCount(page, 'Showing 3 of 3 items');
      await expect.poll(() => cardTitles(page).then((titles) => titles.includes('blue-jeans'))).toBe(false);
      // Soft delete: the row is kept, out of the active list.
      const rows = await clothingRepo.listItems(userId, { activeOnly: false });
      expect(rows.find((item) => item.name === 'blue-jeans')?.is_deleted).toBe(true);

      // The screen itself, once the toasts (the shared toaster's styling) have gone.
      await page.waitForFunction(() => !(globalThis as unknown as PageGlobals).document.querySelector('[data-sonner-toast]'), undefined, {
        timeout: 15_000,
      });
      await expect(seriousAxeViolations(page)).resolves.toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows 'Failed to load clothing items' when the list cannot be read, and fits a phone screen", async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    try {
      await signUpInUi(page, uniqueEmail('clothing.phone'));
      await page.route('**/api/clothing-items?active=true', (route) => route.fulfill({ status: 500, body: '{}' }));
      await page.goto('/studio/clothing');
      await toast(page, 'Failed to load clothing items').waitFor();
      await page.getByRole('heading', { name: 'Failed to load clothing items' }).waitFor();
      await page.unroute('**/api/clothing-items?active=true');
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'No clothing items yet' }).waitFor();
      const overflow = await page.evaluate(() => {
        const { documentElement } = (globalThis as unknown as PageGlobals).document;
        return documentElement.scrollWidth - documentElement.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
