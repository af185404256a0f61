// Webhooks on the API screen in Chromium against the twin: add an endpoint pointing at a local receiver (its signing
// secret shown once), send it a test event, which arrives signed with that secret and shows in the delivery log, then
// delete it after the confirmation.
import type { Browser } from 'playwright';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { openPage, seriousAxeViolations, signUpInUi, toast, uniqueEmail, useChromium, type TestPage } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));
let session: TestPage;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  session = await openPage(browser);
  await signUpInUi(session.page, uniqueEmail('webhooks.user'));
});
afterAll(async () => {
  await session?.close();
  await receiver?.close();
});

describe('webhooks on the API screen', () => {
  it('adds an endpoint, shows its secret once, sends a test event that arrives signed and appears in the log, then deletes it', async () => {
    const { page, errors } = session;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/api');
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No webhook endpoints yet.').waitFor();

    const url = `${receiver.url}/shop-hooks`;
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await page.getByRole('checkbox', { name: /Batch finished/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretBox = page.getByTestId('webhook-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await toast(page, 'The signing secret is on your clipboard.').waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(secret);

    const endpoints = page.getByRole('list', { name: 'Webhook endpoints' });
    await endpoints.getByText(url).waitFor();
    for (const type of ['generation.completed', 'video.completed', 'batch.completed']) await endpoints.getByText(type, { exact: true }).waitFor();

    await page.getByRole('button', { name: `Send test event to ${url}` }).click();
    await toast(page, 'Test event sent').waitFor();
    const [delivery] = await receiver.waitFor(1, 30_000);
    const event = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { id: string; type: string };
    expect(event.type).toBe('webhook.test');

    const log = page.getByRole('table', { name: 'Webhook deliveries' });
    const row = log.getByRole('row').filter({ hasText: event.id });
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => row.textContent()).toContain('200 delivered');
    expect(await row.textContent()).toContain('webhook.test');
    expect(await row.textContent()).toContain(url);

    // The secret is not shown again once dismissed, nor after a reload.
    await page.getByRole('status').filter({ hasText: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await endpoints.getByText(url).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: `Delete ${url}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await toast(page, 'Endpoint deleted').waitFor();
    await page.getByText('No webhook endpoints yet.').waitFor();
    await row.getByText('(deleted)').waitFor();
    expect(receiver.received).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
