// Packshots in real Chromium against the local twin (issue #42): a seller picks a product photo of the Clothing
// Manager on the Packshot screen, makes an Amazon packshot and reads its marketplace check on the result; then a batch
// with the Packshot shot type makes the listing-ready files that "Download all" zips: each the marketplace preset's
// exact size, JPEG, on a pure white border. Last, a packshot whose cutout kept a stray piece of the meadow (sent as a
// shop's own tool would send a mask) is marked for review, and the seller erases the piece with the Refine cutout
// brush: the packshot is rendered again without it, and no credit moves.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../lambdas/contracts/batch.js';
import { PACKSHOT_PRESETS } from '../../lambdas/contracts/marketplace.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import type { PackshotCutout } from '../../lambdas/contracts/packshots.js';
import { sellerSizedPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { api } from '../support/api.js';
import { moneyChecks } from '../support/money.js';
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
    const { photo } = await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow');
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
    // Saved under the product's and the marketplace's names, with the extension of its bytes (a JPEG).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('green-meadow-tee-amazon-2000.jpg');
    expect((await sharp(await readFile(await download.path())).metadata()).format).toBe('jpeg');
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
    expect([...files.keys()]).toEqual(['manifest.csv', 'green-meadow-tee-front-720x1280.png', 'green-meadow-tee-zalando-1801x2600.jpg']);
    const packshot = files.get('green-meadow-tee-zalando-1801x2600.jpg')!;
    const meta = await sharp(packshot).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PACKSHOT_PRESETS.zalando.width, PACKSHOT_PRESETS.zalando.height]);
    expect(await offWhiteBorderPixels(packshot)).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('Refine cutout', () => {
  const ruleOf = (generation: Generation, id: string) => generation.compliance!.marketplaces.find((market) => market.marketplace === 'amazon')!.rules.find((rule) => rule.id === id)!;

  it('erases a stray piece with the brush: the packshot is rendered again without it, and the balance is unchanged', async () => {
    const { page, errors } = session;
    const user = await signIn(twin(), email);
    const { balanceOf, expectLedgerMatchesBalance, post } = moneyChecks(twin().apiUrl);
    const items = (await api(twin().apiUrl, 'GET', '/clothing-items', { user })).body.items as Array<{ id: string; name: string }>;
    const started = await post(user, '/generate-packshot', { clothingItemId: items.find((item) => item.name === ITEM)!.id, marketplace: 'amazon' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = started.body.generationId as string;
    const deadline = Date.now() + TIMEOUT;
    let generation: Generation;
    for (;;) {
      generation = (await api<Generation>(twin().apiUrl, 'GET', `/generations/${id}`, { user })).body;
      if (generation.status !== 'processing' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(generation.status).toBe('complete');

    // A cutout that kept a piece of the meadow beside the hem (bottom left), as a shop's own tool would send it.
    const cutout = (await api<PackshotCutout>(twin().apiUrl, 'GET', `/generations/${id}/cutout`, { user })).body;
    const STRAY = { left: 25, top: cutout.height - 135, size: 110 };
    const mask = Buffer.from(await (await fetch(cutout.maskUrl)).arrayBuffer());
    const withStray = await sharp(mask)
      .composite([{ input: { create: { width: STRAY.size, height: STRAY.size, channels: 3, background: '#ffffff' } }, left: STRAY.left, top: STRAY.top }])
      .greyscale()
      .png()
      .toBuffer();
    const strayed = await api<Generation>(twin().apiUrl, 'PUT', `/generations/${id}/cutout`, { user, body: { mask: withStray.toString('base64') } });
    expect(strayed.status, JSON.stringify(strayed.body)).toBe(200);
    expect(ruleOf(strayed.body, 'one-product').pass).toBe(false);
    expect(strayed.body.compliance!.review).toBe(true);
    const balance = await balanceOf(user);
    const ledger = (await expectLedgerMatchesBalance(user)).length;

    // The seller opens it in History: the result says to review it; Refine cutout, Erase over the piece, Apply.
    await page.goto('/studio/generations');
    await page.getByRole('heading', { name: 'Generations History' }).waitFor();
    await page.getByRole('button', { name: 'View', exact: true }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('cutout-review').filter({ hasText: 'One product, nothing else' }).waitFor();
    await dialog.getByRole('button', { name: 'Refine cutout' }).click();
    const editor = page.getByRole('dialog', { name: 'Refine cutout' });
    const canvas = editor.getByTestId('cutout-mask');
    await canvas.waitFor();
    await editor.getByText(/renders from a refined cutout left/).waitFor();
    await editor.getByRole('radio', { name: 'Erase' }).click();
    await editor.getByLabel('Brush size').fill('120');
    const box = (await canvas.boundingBox())!;
    const toScreen = (x: number, y: number) => [box.x + (x / cutout.width) * box.width, box.y + (y / cutout.height) * box.height] as const;
    const row = STRAY.top + STRAY.size / 2;
    await page.mouse.move(...toScreen(STRAY.left + 20, row));
    await page.mouse.down();
    for (let x = STRAY.left + 20; x <= STRAY.left + STRAY.size - 20; x += 10) await page.mouse.move(...toScreen(x, row));
    await page.mouse.up();
    await editor.getByRole('button', { name: 'Apply', exact: true }).click();
    await toast(page, 'Packshot rendered again from your cutout. No credits were used.').waitFor({ timeout: TIMEOUT });

    // The new packshot has one piece, the T-shirt: nothing to review; the balance and the ledger are as they were.
    const refined = (await api<Generation>(twin().apiUrl, 'GET', `/generations/${id}`, { user })).body;
    expect(ruleOf(refined, 'one-product')).toMatchObject({ pass: true, measured: 0 });
    expect(refined.compliance!.review).toBe(false);
    expect(refined.ai_model).toBe('packshot-engine:refined-mask');
    await dialog.getByTestId('cutout-review').waitFor({ state: 'detached' });
    expect(await balanceOf(user)).toBe(balance);
    expect((await expectLedgerMatchesBalance(user)).length).toBe(ledger);
    expect(errors).toEqual([]);
  });
});
