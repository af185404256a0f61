// Packshots in real Chromium against the local twin (issue #42): a seller picks a product photo of the Clothing
// Manager on the Packshot screen, makes an Amazon packshot and reads its marketplace check on the result; then a batch
// with the Packshot shot type makes the listing-ready files that "Download all" zips: each the marketplace preset's
// exact size, JPEG, on a pure white border.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../lambdas/contracts/batch.js';
import { PACKSHOT_PRESETS } from '../../lambdas/contracts/marketplace.js';
import { photographicFixture, readPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { offWhiteBorderPixels } from '../support/pictures.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { readZip } from '../support/zip.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

let session: TestPage;
const email = uniqueEmail('packshot.user');
const ITEM = 'Green meadow tee';
const TIMEOUT = 150_000;

useSignedInPage(email, (signedIn) => (session = signedIn), {
  // A product photographed on a busy background, added through the API as the Clothing Manager would.
  prepare: async () => {
    const user = await signIn(twin(), email);
    const { photo } = await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
    await addClothingItem(twin().apiUrl, user, photo, ITEM);
  },
});

describe('packshots', () => {
  it('makes an Amazon packshot from a library item and shows its marketplace check', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/packshot');
    await page.getByRole('heading', { name: 'Packshot' }).waitFor();
    await page.getByRole('tab', { name: 'Clothing items' }).click();
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByText('Amazon main image', { exact: true }).click();
    await page.getByRole('button', { name: /^Make packshot/ }).click();

    const report = page.getByTestId('compliance-report');
    await report.waitFor({ timeout: TIMEOUT });
    expect(await report.locator('summary').innerText()).toBe('Marketplace check · 2000×2000 JPEG · AI provenance recorded (IPTC)');
    await report.locator('summary').click();
    const amazon = page.getByTestId('compliance-amazon');
    await amazon.waitFor();
    expect(await amazon.innerText()).toMatch(/^Pass\s*Amazon main image/);
    expect(errors).toEqual([]);
  });

  it('runs a batch with the Packshot shot type and zips the listing-ready files', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    await page.getByRole('radio', { name: ITEM, exact: true }).click();
    await page.getByRole('button', { name: 'Front', exact: true }).click();
    await page.getByRole('button', { name: 'Packshot', exact: true }).click();
    await page.getByLabel('Packshot marketplace').selectOption('zalando');
    await page.getByRole('button', { name: 'Add to Batch' }).click();
    await page.getByTestId('batch-entry').filter({ hasText: 'Front, Packshot (Zalando)' }).waitFor();
    // One on-model photo and one packshot, each at its tier's price (1 credit each here).
    await page.getByTestId('batch-total-credits').filter({ hasText: '2 credits' }).waitFor();
    await page.getByLabel('Photo size').selectOption('1k');
    await page.getByRole('button', { name: 'Generate Batch' }).click();

    await page.getByTestId('batch-progress').filter({ hasText: '2 done · 0 failed · 2 in all' }).waitFor({ timeout: TIMEOUT });
    await toast(page, BATCH_MESSAGES.complete).waitFor();
    await page.getByRole('img', { name: `${ITEM}, Packshot` }).waitFor();

    // The zip is built by workflow work, then saved: on a busy machine that can take longer than a click's default.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), page.getByRole('button', { name: 'Download all (zip)' }).click()]);
    const files = readZip(await readFile(await download.path()));
    expect([...files.keys()]).toEqual(['manifest.csv', '01-green-meadow-tee-front.png', '01-green-meadow-tee-packshot-zalando.jpg']);
    const packshot = files.get('01-green-meadow-tee-packshot-zalando.jpg')!;
    const meta = await sharp(packshot).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PACKSHOT_PRESETS.zalando.width, PACKSHOT_PRESETS.zalando.height]);
    expect(await offWhiteBorderPixels(packshot)).toBe(0);
    expect(errors).toEqual([]);
  });
});
