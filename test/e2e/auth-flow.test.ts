// Sign up → confirm → dashboard → sign out → sign in, through the real UI against the local twin.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import {
  mailboxCodes,
  openPage,
  signOutInUi,
  signUpInUi,
  submitSignIn,
  toast,
  uniqueEmail,
  waitForNewCode,
  useChromium,
} from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

const today = () => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date());

describe('account life cycle', () => {
  it('signs up with the e-mailed code, shows 5 credits and the account details, signs out and back in', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('maya.patel');

    await signUpInUi(page, email);
    await expect(toast(page, 'Account created!').textContent()).resolves.toContain(
      'Welcome to ModelLoop. You have 5 free video credits.',
    );

    // The dashboard: spinner, then the cards and the account details.
    await expect(page.getByTestId('dashboard-credits').textContent()).resolves.toBe('5');
    await expect(page.getByText('Free Trial').isVisible()).resolves.toBe(true);
    const idToken = await page.evaluate(() => {
      const { localStorage: storage } = globalThis as unknown as { localStorage: { key(i: number): string | null; getItem(k: string): string | null; length: number } };
      for (let index = 0; index < storage.length; index++) {
        const key = storage.key(index);
        if (key?.endsWith('.idToken')) return storage.getItem(key);
      }
      return null;
    });
    expect(idToken).toBeTruthy();
    const { sub } = JSON.parse(Buffer.from(idToken!.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
    const details = page.getByRole('definition');
    await expect(details.allTextContents()).resolves.toEqual([sub.slice(0, 8), email, today(), today()]);

    // The account menu: initials from "maya.patel", the e-mail and the live balance.
    await expect(page.getByRole('button', { name: /^Account menu/ }).locator('[aria-hidden="true"]').textContent()).resolves.toBe('MP');
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await expect(page.getByRole('menu').textContent()).resolves.toContain(email);
    await expect(page.getByRole('menuitem', { name: '5 credits' }).getAttribute('href')).resolves.toBe('/settings#billing');
    await page.keyboard.press('Escape');

    await signOutInUi(page);
    await toast(page, 'Signed out').waitFor();
    await expect(toast(page, 'Signed out').textContent()).resolves.toContain('You have been successfully signed out.');
    await page.getByRole('link', { name: 'Get Started FREE' }).first().waitFor();

    await submitSignIn(page, email);
    await page.waitForURL('**/dashboard');
    await expect(toast(page, 'Welcome back!').textContent()).resolves.toContain("You've successfully signed in.");
    await expect(page.getByTestId('dashboard-credits').textContent()).resolves.toBe('5');

    // Signed in: /auth sends the visitor on to the dashboard, and the landing page shows Studio and Dashboard.
    await page.goto('/auth');
    await page.waitForURL('**/dashboard');
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).waitFor();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Studio' }).getAttribute('href'),
    ).resolves.toBe('/studio/generate/video-generation');

    expect(errors).toEqual([]);
    await close();
  });

  it('reports a wrong password and an unknown e-mail alike, as "Incorrect email or password", and clears the busy state', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('wrong.password');
    await signUpInUi(page, email);
    await signOutInUi(page);

    await submitSignIn(page, uniqueEmail('nobody.here'), 'Not-the-password-1');
    const unknown = toast(page, 'Authentication Error');
    await unknown.waitFor();
    expect(await unknown.innerText()).toContain('Incorrect email or password');
    await unknown.getByRole('button', { name: /close/i }).click();
    await unknown.waitFor({ state: 'detached' });

    await submitSignIn(page, email, 'Not-the-password-1');
    await toast(page, 'Authentication Error').waitFor();
    const wrong = await toast(page, 'Authentication Error').innerText();
    expect(wrong).toContain('Incorrect email or password');
    expect(wrong).not.toContain('Invalid password');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true }).isEnabled()).resolves.toBe(true);
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(errors).toEqual([]);
    await close();
  });

  it('tells the visitor where the confirmation code is on the local twin', async () => {
    const { page, close } = await openPage(browser);
    await page.goto('/auth');
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await expect(page.getByText('Create your account and get 5 free video credits.').isVisible()).resolves.toBe(true);
    await page.getByLabel('Email').fill(uniqueEmail('code.hint'));
    await page.getByLabel('Password', { exact: true }).fill('Correct-horse-7');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('the code is printed in the terminal running').waitFor();
    await close();
  });

  it('explains that no social provider is configured', async () => {
    const { page, close } = await openPage(browser);
    await page.goto('/auth');
    await expect(page.getByRole('button', { name: /Continue with Apple/ }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(toast(page, 'Sign In Error').textContent()).resolves.toContain('Social sign-in is not available');
    await expect(page.getByRole('button', { name: 'Continue with Google' }).isEnabled()).resolves.toBe(true);
    await close();
  });

  it('resets a forgotten password with the e-mailed code', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('forgetful');
    await signUpInUi(page, email);
    await signOutInUi(page);

    await page.goto('/auth');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(email);
    const codesBefore = mailboxCodes(email).length;
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('Verification code').fill(await waitForNewCode(email, codesBefore));
    await page.getByLabel('New password').fill('Another-horse-8');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await toast(page, 'Password updated').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Another-horse-8');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    expect(errors).toEqual([]);
    await close();
  });
});
