// Support that reaches someone, in real Chromium against the local twin: the form creates a ticket that is listed
// under "Your requests" with its status and mailed to the stage's support address (on the twin, a line in its mailbox
// file), and the help cards open real pages: the guides, the API reference and the FAQ.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPage, PHONE, signInInUi, toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';
import type { Browser } from 'playwright';

const email = uniqueEmail('support.user');
let session: TestPage;
let browser: Browser;
useSignedInPage(email, (signedIn, chromium) => ((session = signedIn), (browser = chromium)));

const supportMail = (subject: string) => {
  const file = twin().env.SUPPORT_MAILBOX_FILE!;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { to: string; replyTo: string; subject: string; text: string })
    .filter((mail) => mail.subject.includes(subject));
};

describe('support', () => {
  it('creates a ticket, lists it under Your requests with its status, and mails it to the support address', async () => {
    const { page, errors } = session;
    await page.goto('/support');
    await page.getByRole('heading', { name: 'Your requests' }).waitFor();
    await page.getByText('No requests yet.', { exact: false }).waitFor();
    const subject = `Batch download question ${Date.now()}`;
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill('The zip of my last batch has one photo missing. Can you look?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await toast(page, `Thanks! We'll reply to ${email} within 24 hours.`).waitFor();

    const requests = page.getByRole('list', { name: 'Your requests' });
    await requests.getByText(subject).waitFor();
    await requests.getByText('Open', { exact: true }).waitFor();
    await expect.poll(() => supportMail(subject).length).toBe(1);
    expect(supportMail(subject)[0]).toMatchObject({ to: 'support@modelloop.local', replyTo: email });
    expect(supportMail(subject)[0]!.text).toContain('one photo missing');
    // Still there after a reload: it is stored, not only shown.
    await page.reload();
    await page.getByRole('list', { name: 'Your requests' }).getByText(subject).waitFor();
    expect(errors).toEqual([]);
  });

  it('links each help card to a real page: the guides, the API reference and the FAQ', async () => {
    const { page } = session;
    await page.goto('/support');
    await page.getByRole('link', { name: 'Guides' }).click();
    await page.waitForURL('**/support/guides');
    await page.getByRole('heading', { name: 'Make looping videos' }).waitFor();
    await page.goto('/support');
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL('**/api');
    // The page it opens holds the reference, read from the OpenAPI document this deployment serves.
    await page.getByRole('heading', { name: 'API', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Show the API reference' }).click();
    const reference = page.getByLabel('API reference');
    await reference.getByText('On-model photos, edits, upscales, batches and looping product videos.', { exact: false }).waitFor();
    await reference.getByText('/v1/profile', { exact: true }).first().waitFor();
    await page.goto('/support');
    await page.getByRole('link', { name: 'FAQ', exact: true }).click();
    await page.waitForURL('**/support#support-faq');
    await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
  });

  it('shows Your requests on a phone without widening the screen', async () => {
    const phone = await openPage(browser, PHONE);
    try {
      await signInInUi(phone.page, email);
      await phone.page.goto('/support');
      await phone.page.getByRole('list', { name: 'Your requests' }).waitFor();
      const width = await phone.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await phone.close();
    }
  });
});
