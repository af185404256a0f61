// A sign-up finished later, in real Chromium against the twin: the tab closed before the code, then a sign-in (or a
// second sign-up) with the same e-mail opens the code screen with a new code, "Send it again" sends another, a wrong
// code is refused, and that refusal does not follow the seller onto the dashboard.
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { mailboxCodes, openPage, submitSignIn, TEST_PASSWORD, toast, uniqueEmail, useChromium, waitForNewCode } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

/** Sign-up up to the code screen, then the tab is closed. */
async function signUpAndLeave(email: string): Promise<void> {
  const { page, close } = await openPage(browser);
  await page.goto('/auth?mode=signup');
  await page.getByRole('heading', { name: 'Get Started' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByLabel('Verification code').waitFor();
  await waitForNewCode(email, 0);
  await close();
}

async function confirmWithNewestCode(page: Page, email: string, seen: number): Promise<void> {
  const code = await waitForNewCode(email, seen);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
}

describe('a sign-up finished later', () => {
  it('signs in to an unconfirmed account: the code screen, Send it again, a wrong code refused, then the dashboard without the refusal', async () => {
    const email = uniqueEmail('later.signin');
    await signUpAndLeave(email);

    const { page, errors, close } = await openPage(browser);
    await submitSignIn(page, email);
    // The sign-in answers "not confirmed": a new code is sent and the code screen opens.
    await page.getByRole('heading', { name: 'Confirm your email' }).waitFor();
    await expect.poll(() => mailboxCodes(email).length).toBe(2);
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'unsupported' }).count()).toBe(0);

    await page.getByRole('button', { name: "Didn't get a code? Send it again" }).click();
    await toast(page, 'Code sent').waitFor();
    await expect.poll(() => mailboxCodes(email).length).toBe(3);

    const newest = mailboxCodes(email)[2]!;
    const wrong = newest === '000000' ? '111111' : '000000';
    await page.getByLabel('Verification code').fill(wrong);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await toast(page, 'Authentication Error').waitFor();

    await confirmWithNewestCode(page, email, 2);
    await page.waitForURL('**/dashboard');
    await toast(page, 'Account created!').waitFor();
    // A dismissed toast stays in the page for its exit animation (data-removed): only one still shown counts.
    expect(await page.locator('[data-sonner-toast]:not([data-removed="true"])').filter({ hasText: 'Authentication Error' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('a second sign-up of an unconfirmed e-mail opens the code screen rather than "User exists"', async () => {
    const email = uniqueEmail('later.signup');
    await signUpAndLeave(email);

    const { page, errors, close } = await openPage(browser);
    await page.goto('/auth?mode=signup');
    await page.getByRole('heading', { name: 'Get Started' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Confirm your email' }).waitFor();
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: /exists/i }).count()).toBe(0);
    await confirmWithNewestCode(page, email, 1);
    await page.waitForURL('**/dashboard');
    expect(errors).toEqual([]);
    await close();
  });
});
