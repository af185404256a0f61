// What a seller reads about their credits, in Chromium against the twin: a failed generation that was refunded shows
// as refunded (net 0) in History and Usage, Usage's totals come from the whole ledger after a purchase, the plan card
// turns from 'Free Trial' to 'Pay as you go'; a landing pack opens Billing with its amount chosen (through sign-up
// for a visitor), and the $5 pack can be bought; a text file renamed .png is refused before any preview.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { signIn, waitForCode, type TestUser } from '../support/users.js';
import { openPage, PHONE, signUpInUi, TEST_PASSWORD, toast, twin, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

async function generate(user: TestUser, prompt: string): Promise<Generation> {
  const photo = await tshirtPhoto(600, 700);
  const started = await api(twin().apiUrl, 'POST', '/generate-ai-image', {
    user,
    body: { imageData: `data:image/jpeg;base64,${photo.toString('base64')}`, productType: 'clothing', prompt, imageSize: '1k' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    const { body } = await api<Generation>(twin().apiUrl, 'GET', `/generations/${started.body.generationId}`, { user });
    if (body.status !== 'processing') return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the generation did not end');
}

const usageFigure = (page: Page, id: 'available' | 'bought' | 'spent' | 'refunded') => page.getByTestId(`usage-${id}`);

describe('credit figures', () => {
  it('shows a refunded failure as refunded (net 0) in History and Usage, and whole-ledger totals after a purchase', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('figures');
    await signUpInUi(page, email);
    await expect(page.getByTestId('dashboard-plan').textContent()).resolves.toBe('Free Trial');
    const user = await signIn(twin(), email);
    const failed = await generate(user, 'young female model [local-engine: fail]');
    expect(failed.status).toBe('failed');
    const made = await generate(user, 'young female model');
    expect(made.status).toBe('complete');

    await page.goto('/studio/generations');
    const failedRow = page.getByTestId('generation-row').filter({ hasText: 'Failed' });
    await failedRow.waitFor();
    await expect(failedRow.getByTestId('generation-credits').innerText()).resolves.toBe('0 (1 refunded)');
    const madeRow = page.getByTestId('generation-row').filter({ hasText: 'Complete' });
    await expect(madeRow.getByTestId('generation-credits').innerText()).resolves.toBe('1');

    await page.goto('/dashboard/usage');
    await usageFigure(page, 'refunded').filter({ hasText: /^1$/ }).waitFor();
    await expect(usageFigure(page, 'spent').innerText()).resolves.toBe('1');
    await expect(usageFigure(page, 'bought').innerText()).resolves.toBe('0');
    await expect(usageFigure(page, 'available').innerText()).resolves.toBe('4');
    const recentFailed = page.getByTestId('recent-generation-row').filter({ hasText: 'Failed' });
    await expect(recentFailed.getByTestId('generation-credits').innerText()).resolves.toBe('0 (1 refunded)');

    await page.goto('/dashboard/billing');
    await page.getByRole('button', { name: 'Buy 170 credits for $17.00' }).click();
    await toast(page, 'Credits added').waitFor();
    await page.goto('/dashboard/usage');
    await usageFigure(page, 'bought').filter({ hasText: /^170$/ }).waitFor();
    await expect(usageFigure(page, 'available').innerText()).resolves.toBe('174');
    await expect(usageFigure(page, 'spent').innerText()).resolves.toBe('1');
    await page.goto('/dashboard');
    await page.getByTestId('dashboard-plan').filter({ hasText: 'Pay as you go' }).waitFor();

    // On a phone, History is a list of cards: nothing runs off the screen and View is reachable.
    await page.setViewportSize(PHONE);
    await page.goto('/studio/generations');
    const card = page.getByTestId('generation-card').filter({ hasText: 'Complete' });
    const view = card.getByRole('button', { name: 'View' });
    await view.waitFor();
    const box = await view.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expect(page.getByTestId('generation-card').filter({ hasText: 'Failed' }).getByTestId('generation-credits').innerText()).resolves.toBe(
      '0 (1 refunded)',
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('takes a signed-in seller from a landing pack to Billing with that amount chosen, and the $5 pack can be bought', async () => {
    const { page, errors, close } = await openPage(browser);
    await signUpInUi(page, uniqueEmail('starter.pack'));
    await page.goto('/#pricing');
    await page.getByRole('link', { name: 'Get Starter' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/billing' && url.searchParams.get('credits') === '50');
    await expect(page.getByLabel('Number of credits').inputValue()).resolves.toBe('50');
    await expect(page.getByTestId('billing-total').textContent()).resolves.toBe('$5.00');
    await page.getByRole('button', { name: 'Buy 50 credits for $5.00' }).click();
    await toast(page, 'Credits added').waitFor();
    await page.getByTestId('billing-balance').filter({ hasText: /^55$/ }).waitFor();

    // A pack that is one of Billing's packages selects that package.
    await page.goto('/dashboard/billing?credits=170');
    await page.getByRole('button', { name: 'Buy 170 credits for $17.00' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('takes a visitor from a landing pack through sign-up to Billing with that amount chosen', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('pro.pack');
    await page.goto('/#pricing');
    await page.getByRole('link', { name: 'Get Professional' }).click();
    await page.getByRole('heading', { name: 'Get Started' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByLabel('Verification code').fill(await waitForCode(twin().mailboxFile, email));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/billing' && url.searchParams.get('credits') === '200');
    await page.getByRole('button', { name: 'Buy 200 credits for $20.00' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('refuses a text file renamed .png by its bytes, before any preview, with the specification message', async () => {
    const { page, errors, close } = await openPage(browser);
    await signUpInUi(page, uniqueEmail('magic.bytes'));
    const fake = { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('just some notes, not a picture\n') };

    await page.goto('/studio/clothing');
    await page.getByRole('button', { name: 'New Item' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Item' });
    await dialog.getByLabel('Image', { exact: true }).setInputFiles(fake);
    await expect(toast(page, 'Invalid file type').textContent()).resolves.toContain('Please upload a JPEG, PNG, or WebP image');
    await expect(dialog.locator('img').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    await page.goto('/studio/generate/video-generation');
    await page.getByLabel('Upload a product image').setInputFiles(fake);
    await expect.poll(() => page.locator('[data-sonner-toast]').filter({ hasText: 'Invalid file type' }).count()).toBeGreaterThan(0);
    await expect(page.locator('main img').count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('offers Buy credits on the zero-credit message', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('no.credits');
    await signUpInUi(page, email);
    const user = await signIn(twin(), email);
    // Spend the 5 sign-up credits.
    for (let index = 0; index < 5; index += 1) await generate(user, 'young female model');
    await page.goto('/studio/generate/upscale');
    await page.getByRole('tab', { name: 'Past results' }).waitFor();
    // Edit and Upscale open on Past results when there are any.
    // (once the results have been read: until then there is nothing to open on)
    await expect.poll(() => page.getByRole('tab', { name: 'Past results' }).getAttribute('aria-selected'), { timeout: 15_000 }).toBe('true');
    await page.getByRole('radio').first().click();
    await page.getByRole('button', { name: /^Upscale to/ }).click();
    const message = page.locator('[data-sonner-toast]').filter({ hasText: /credit/ }).first();
    await message.getByRole('button', { name: 'Buy credits' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/billing');
    expect(errors).toEqual([]);
    await close();
  });
});
