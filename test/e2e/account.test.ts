// Settings → Your Data and Danger Zone in Chromium: "Download my data" saves a zip; Delete Account needs the account's
// e-mail typed, signs out, and the account can't sign in again.
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchChromium, openPage, signUpInUi, submitSignIn, toast, uniqueEmail } from './harness.js';
import { readZip } from '../support/zip.js';
import { readFileSync } from 'node:fs';

let browser: Browser;

beforeAll(async () => {
  ensureWebBuilt();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('settings: your data and the danger zone', () => {
  it('downloads my data as a zip', async () => {
    const { page, errors, close } = await openPage(browser);
    await signUpInUi(page, uniqueEmail('export.user'));
    await page.goto('/settings#your-data');
    // The export is a workflow (a cold worker on a loaded machine can outlast Playwright's 30 s default).
    const saved = page.waitForEvent('download', { timeout: 90_000 });
    await page.getByRole('button', { name: 'Download my data' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^modelloop-data-\d{8}\.zip$/);
    const entries = readZip(readFileSync((await download.path())!));
    expect(JSON.parse(entries.get('credit-transactions.json')!.toString('utf8'))).toEqual([expect.objectContaining({ transaction_type: 'signup_bonus', amount: 5 })]);
    expect(errors).toEqual([]);
    await close();
  });

  it('deletes the account once its e-mail is typed, signs out, and the account can no longer sign in', async () => {
    const { page, close } = await openPage(browser);
    const email = uniqueEmail('delete.me');
    await signUpInUi(page, email);
    await page.goto('/settings#danger-zone');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Are you absolutely sure?' });
    await dialog.waitFor();
    await expect(dialog.getByText('kept for accounting, anonymised').isVisible()).resolves.toBe(true);
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    const field = dialog.getByLabel(/to confirm$/);
    await field.fill('someone.else@example.com');
    await expect(confirm.isEnabled()).resolves.toBe(false);
    await field.fill(email.toUpperCase());
    await expect(confirm.isEnabled()).resolves.toBe(true);
    await confirm.click();

    await page.waitForURL((url) => url.pathname === '/');
    await toast(page, 'Account deleted').waitFor();
    // The workflow deletes the sign-in first: a sign-in with the right password is refused.
    await expect
      .poll(
        async () => {
          await submitSignIn(page, email);
          const refused = toast(page, 'Authentication Error');
          await Promise.race([refused.waitFor(), page.waitForURL('**/dashboard')]).catch(() => undefined);
          return refused.isVisible();
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(new URL(page.url()).pathname).toBe('/auth');
    await close();
  });
});
