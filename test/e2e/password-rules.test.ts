// Sign-up in Chromium against the twin: the password's rules are listed before submit, a password that breaks one is
// not sent and the form names that rule, and a password meeting every rule creates the account.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES } from '../../lambdas/contracts/password-policy.js';
import { mailboxCodes, openPage, TEST_PASSWORD, uniqueEmail, useChromium, waitForNewCode } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

describe('sign-up password rules', () => {
  it('lists the rules before submit, names the one a password breaks, and signs up once every rule is met', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('rules');
    await page.goto('/auth?mode=signup');
    await page.getByRole('heading', { name: 'Get Started' }).waitFor();
    const rules = page.getByRole('list', { name: 'Password rules' });
    await expect(rules.getByRole('listitem').allTextContents()).resolves.toEqual(PASSWORD_RULES.map((rule) => `${rule.label} (not met yet)`));

    await page.getByLabel('Email').fill(email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abc');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Password needs' }).textContent()).resolves.toBe('Password needs at least 8 characters.');
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');

    // The message follows what is typed: long enough, but no symbol.
    await password.fill('Abcdefg1');
    await expect(page.getByRole('alert').filter({ hasText: 'Password needs' }).textContent()).resolves.toBe('Password needs a symbol, like ! or #.');
    await expect(rules.getByRole('listitem').filter({ hasText: '(met)' }).count()).resolves.toBe(PASSWORD_RULES.length - 1);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Password needs' }).textContent()).resolves.toBe('Password needs a symbol, like ! or #.');
    // Nothing was sent: no code was mailed to the address.
    expect(mailboxCodes(email)).toEqual([]);

    await password.fill(TEST_PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Password needs' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const code = await waitForNewCode(email, 0);
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL('**/dashboard');
    expect(errors).toEqual([]);
    await close();
  });
});
