// The session on the local twin: expired tokens are renewed with InitiateAuth REFRESH_TOKEN_AUTH (cognito-local has no
// GetTokensFromRefreshToken), and load failures of the signed-in screens show the catalogue's toasts.
import { describe, expect, it } from 'vitest';
import { toast, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

let session: TestPage;
useSignedInPage(uniqueEmail('session.keeper'), (signedIn) => (session = signedIn));

interface BrowserStorage {
  length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

describe('session', () => {
  it('renews expired tokens with REFRESH_TOKEN_AUTH and keeps the user signed in', async () => {
    const { page, errors } = session;
    // Make the stored ID and access tokens look expired (Amplify reads their exp claim; the server never sees them).
    const expiredToken = await page.evaluate(() => {
      const { localStorage: storage, atob: decode, btoa: encode } = globalThis as unknown as {
        localStorage: BrowserStorage;
        atob(value: string): string;
        btoa(value: string): string;
      };
      const toBase64Url = (text: string) => encode(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      let idToken = '';
      for (let index = 0; index < storage.length; index++) {
        const key = storage.key(index)!;
        if (!key.endsWith('.idToken') && !key.endsWith('.accessToken')) continue;
        const [header, payload, signature] = storage.getItem(key)!.split('.');
        const claims = JSON.parse(decode(payload!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
        claims.exp = Math.floor(Date.now() / 1000) - 60;
        const expired = `${header}.${toBase64Url(JSON.stringify(claims))}.${signature}`;
        storage.setItem(key, expired);
        if (key.endsWith('.idToken')) idToken = expired;
      }
      return idToken;
    });
    expect(expiredToken).not.toBe('');

    const refreshCalls: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['x-amz-target'] === 'AWSCognitoIdentityProviderService.InitiateAuth') refreshCalls.push(request.postData() ?? '');
    });
    const bearerTokens: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/profile')) bearerTokens.push(request.headers().authorization ?? '');
    });

    await page.goto('/dashboard');
    await expect(page.getByTestId('dashboard-credits').textContent()).resolves.toBe('5');
    expect(refreshCalls.some((body) => body.includes('REFRESH_TOKEN_AUTH'))).toBe(true);
    expect(bearerTokens.length).toBeGreaterThan(0);
    expect(bearerTokens.every((header) => header.startsWith('Bearer ') && header !== `Bearer ${expiredToken}`)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(errors).toEqual([]);
  });
});

describe('load failures', () => {
  const failure = { status: 500, json: { error: 'Something went wrong', code: 'INTERNAL' } };

  it("shows 'Error' / 'Failed to load profile data' when the profile cannot be read", async () => {
    const { page } = session;
    await page.route('**/profile', (route) => route.fulfill(failure));
    await page.goto('/dashboard');
    const message = toast(page, 'Failed to load profile data');
    await expect(message.textContent()).resolves.toContain('Error');
    await page.getByText('Your account details could not be loaded.').waitFor();
    await page.unroute('**/profile');
  });

  it("shows 'Failed to load billing data' when the transactions cannot be read", async () => {
    const { page } = session;
    await page.route('**/credit-transactions', (route) => route.fulfill(failure));
    await page.goto('/dashboard/usage');
    await toast(page, 'Failed to load billing data').waitFor();
    await page.unroute('**/credit-transactions');
  });

  it("shows 'Failed to load pricing' when the pricing tiers cannot be read", async () => {
    const { page } = session;
    await page.route('**/pricing-tiers', (route) => route.fulfill(failure));
    await page.goto('/dashboard/prices');
    await toast(page, 'Failed to load pricing').waitFor();
    await page.getByText('Prices could not be loaded.').waitFor();
    await page.unroute('**/pricing-tiers');
  });
});
