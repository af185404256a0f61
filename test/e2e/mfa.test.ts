// TOTP two-factor authentication: turned on in settings, then required at sign-in with a code computed here.
import { generate } from 'otplib';
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { openPage, signOutInUi, signUpInUi, submitSignIn, toast, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

describe('two-factor authentication', () => {
  it('is set up with a QR code and a first code, then asked for at sign-in, and can be turned off', async () => {
    const { page, errors, close } = await openPage(browser);
    const email = uniqueEmail('careful.seller');
    await signUpInUi(page, email);

    await page.goto('/settings#security');
    await page.getByTestId('mfa-status').filter({ hasText: 'is off' }).waitFor();
    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await page.getByLabel('Code from the app').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByTestId('mfa-status').filter({ hasText: 'is on' }).waitFor();

    await signOutInUi(page);
    await submitSignIn(page, email);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await page.getByLabel('Authentication code').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await toast(page, 'Welcome back!').waitFor();

    await page.goto('/settings#security');
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await page.getByTestId('mfa-status').filter({ hasText: 'is off' }).waitFor();
    await signOutInUi(page);
    await submitSignIn(page, email);
    await page.waitForURL('**/dashboard');
    expect(errors).toEqual([]);
    await close();
  });
});
