// The API screen in real Chromium against the twin: a key is created and shown once with a copy button, works on
// /v1/profile from outside the browser, is listed masked, is revoked after a confirmation and then answers 401.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { API_KEY_AUTH_CACHE_SECONDS } from '../../lambdas/contracts/api-keys.js';
import { openPage, signUpInUi, toast, twin, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

const profileWith = (key: string) => fetch(`${twin().apiUrl}/v1/profile`, { headers: { 'x-api-key': key } });

describe('the API screen', () => {
  it('creates a key shown once (copied to the clipboard), which calls /v1/profile, then revokes it after a confirmation', async () => {
    const { page, errors, close } = await openPage(browser);
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: twin().webUrl });
      await signUpInUi(page, uniqueEmail('api-keys'));
      await page.goto('/api');
      await page.getByRole('heading', { name: 'API', level: 1 }).waitFor();
      await page.getByText('No API keys yet.').waitFor();
      // The quick start names this deployment's API.
      await expect(page.getByText(`export ML_API=${twin().apiUrl}/v1`).count()).resolves.toBeGreaterThan(0);

      await page.getByLabel('Key name').fill('Shopify sync');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByTestId('new-api-key');
      await shown.waitFor();
      const key = (await shown.textContent())!.trim();
      expect(key).toMatch(/^ml_[0-9A-Za-z]{32}$/);
      await page.getByRole('button', { name: 'Copy Shopify sync' }).click();
      await toast(page, 'Copied').waitFor();
      await expect(page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).resolves.toBe(key);

      const answer = await profileWith(key);
      expect(answer.status).toBe(200);
      const profile = (await answer.json()) as { email: string; current_credits: number };
      expect(profile.current_credits).toBeGreaterThan(0);

      // Shown once: after a reload the list has it only masked.
      await page.reload();
      const list = page.getByRole('list', { name: 'API keys' });
      await list.getByText('Shopify sync').waitFor();
      await expect(page.getByTestId('new-api-key').count()).resolves.toBe(0);
      await expect(list.getByTestId('api-key-masked').textContent()).resolves.toBe(`${key.slice(0, 7)}…${key.slice(-4)}`);
      await expect(page.content()).resolves.not.toContain(key);

      await page.getByRole('button', { name: 'Revoke Shopify sync' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Revoke this key?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await toast(page, 'Key revoked').waitFor();
      await list.getByText('Revoked', { exact: true }).waitFor();
      await expect(page.getByRole('button', { name: 'Revoke Shopify sync' }).count()).resolves.toBe(0);

      // Within the authorizer's cache period the key stops working.
      const deadline = Date.now() + (API_KEY_AUTH_CACHE_SECONDS + 2) * 1000;
      let status = 200;
      while (Date.now() < deadline && status === 200) {
        status = (await profileWith(key)).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(status).toBe(401);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
