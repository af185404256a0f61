// Buying credits by card in Chromium, on a twin in Stripe mode whose Stripe is a local stand-in (no internet): the
// billing page sends the buyer to the checkout page, the return page says the payment was received until the
// webhook's credits are pushed, then shows the new balance; a cancel changes nothing; the receipt is listed. On the
// default twin the page says the local test payment is active.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';
import { createUser } from '../support/users.js';
import { ensureWebBuilt, launchChromium, openPage, signInInUi, signUpInUi, uniqueEmail } from './harness.js';

const WEBHOOK_SECRET = 'whsec_test_modelloop_e2e';
let browser: Browser;
let stripe: FakeStripe;
let twin: Twin;
let dataDir: string;
let context: BrowserContext;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ensureWebBuilt();
  stripe = await startFakeStripe(WEBHOOK_SECRET);
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-stripe-e2e-'));
  twin = await startTwin({
    dataDir,
    webRoot: resolve(import.meta.dirname, '../../web/dist'),
    stripe: { secretKey: 'sk_test_fake_for_e2e', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url },
  });
  stripe.webhookUrl = `${twin.apiUrl}/webhooks/stripe`;
  browser = await launchChromium();
  const user = await createUser(twin.info);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: twin.webUrl });
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await signInInUi(page, user.email, user.password);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await twin?.stop();
  await stripe?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const balance = () => page.getByTestId('billing-balance').textContent();

describe('card payments through Stripe Checkout', () => {
  it('shows that Stripe test mode is active', async () => {
    await page.goto('/dashboard/billing');
    await expect(page.getByTestId('payment-mode').textContent()).resolves.toBe('Stripe test mode (no real money)');
    await expect.poll(balance, { timeout: 20_000 }).toBe('5');
  });

  it('goes to the checkout page, comes back to "Payment received — adding your credits", then shows the pushed balance', async () => {
    await page.goto('/dashboard/billing');
    await expect.poll(balance, { timeout: 20_000 }).toBe('5');
    // Stripe may call the webhook after the buyer is back: the page must wait for the credits, not assume them.
    stripe.deliveryDelayMs = 2_500;
    await page.getByText('5,000 credits', { exact: true }).click();
    await page.getByRole('button', { name: 'Buy 5,000 credits for $500.00' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/pay/cs_`));
    await page.getByRole('heading', { name: 'Pay $500.00' }).waitFor();
    const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(stripe.sessions.get(sessionId)).toMatchObject({ amount_total: 50_000, currency: 'usd', mode: 'payment' });

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/billing' && url.searchParams.get('checkout') === 'success');
    const status = page.getByTestId('checkout-status');
    await expect(status.textContent()).resolves.toBe('Payment received — adding your credits…');
    // The page reloaded on the way back: its balance is read again, and is still the old one until the webhook lands.
    await expect.poll(balance, { timeout: 20_000 }).toBe('5');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('5,000 credits added. Your balance is now 5,005 credits.');
    await expect.poll(balance, { timeout: 20_000 }).toBe('5,005');
  });

  it('lists the purchase with its amount and Stripe receipt', async () => {
    await page.goto('/dashboard/billing');
    const row = page.getByTestId('receipts').locator('tbody tr').first();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('5,000');
    await expect(row.textContent()).resolves.toContain('$500.00');
    await expect(row.getByRole('link', { name: 'Receipt' }).getAttribute('href')).resolves.toMatch(/^https:\/\/pay\.stripe\.com\/receipts\//);
    await expect(row.getByRole('button', { name: 'Request refund' }).isVisible()).resolves.toBe(true);
  });

  it('says nothing was charged when the buyer cancels on the checkout page', async () => {
    await page.goto('/dashboard/billing');
    await page.getByText('Custom amount').click();
    await page.getByLabel('Number of credits').fill('4');
    await expect(page.getByText('Card payments start at 5 credits ($0.50)').isVisible()).resolves.toBe(true);
    await page.getByLabel('Number of credits').fill('50');
    await page.getByRole('button', { name: 'Buy 50 credits for $5.00' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/pay/`));
    await page.getByRole('button', { name: 'Back to ModelLoop' }).click();
    await page.waitForURL((url) => url.searchParams.get('checkout') === 'cancelled');
    await expect(page.getByRole('status').filter({ hasText: 'Checkout was cancelled' }).textContent()).resolves.toBe('Checkout was cancelled. Nothing was charged.');
    await expect.poll(balance, { timeout: 20_000 }).toBe('5,005');
    expect(errors).toEqual([]);
  });
});

describe('the default twin', () => {
  it('shows that the local test payment is active', async () => {
    const session = await openPage(browser);
    try {
      await signUpInUi(session.page, uniqueEmail('test.payment'));
      await session.page.goto('/dashboard/billing');
      await expect(session.page.getByTestId('payment-mode').textContent()).resolves.toBe('Test mode (no card, no money)');
      expect(session.errors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
