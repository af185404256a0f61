// Live credits across tabs: two tabs (two pages of one browser context) of one signed-in user; a purchase on the
// billing screen of one updates the account menu of the other through its WebSocket — no reload, and with the other
// tab's profile requests cut off, so the new balance can only have come from the socket.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { signIn } from '../support/users.js';
import { DESKTOP, openAccountMenu, signUpInUi, twin, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

/** Open WebSocket connections the twin has saved for a user (one per tab once each tab is connected). */
async function savedConnections(userId: string): Promise<number> {
  Object.assign(process.env, twin().env);
  const { connectionsOf } = await import('../../lambdas/data/connections-repo.js');
  return (await connectionsOf(userId)).length;
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('live credits in two tabs', () => {
  it('shows a purchase made in one tab in the account menu of the other, without a reload', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: twin().webUrl });
    const errors: string[] = [];
    const email = uniqueEmail('two.tabs');
    try {
      const buyer = await context.newPage();
      buyer.on('pageerror', (error) => errors.push(error.message));
      await signUpInUi(buyer, email);
      const { sub } = await signIn(twin(), email);

      const watcher = await context.newPage();
      watcher.on('pageerror', (error) => errors.push(error.message));
      const watcherSockets: string[] = [];
      watcher.on('websocket', (socket) => watcherSockets.push(socket.url()));
      await watcher.goto('/dashboard');
      const menu = await openAccountMenu(watcher);
      await expect(menu.getByTestId('account-menu-credits').textContent()).resolves.toBe('5 credits');
      await eventually(async () => (await savedConnections(sub)) === 2, 'a socket per tab');
      expect(watcherSockets).toHaveLength(1);
      expect(new URL(watcherSockets[0]!).pathname).toBe('/ws');

      // From here on the watcher cannot re-read the profile: only a pushed balance can change its menu. A marker on
      // its window shows that the page was never reloaded.
      await watcher.route('**/api/profile', (route) => route.abort());
      await watcher.evaluate(() => Object.assign(globalThis, { sameDocument: true }));

      await buyer.goto('/dashboard/billing');
      await buyer.getByText('Custom amount').click();
      await buyer.getByLabel('Number of credits').fill('37');
      await buyer.getByRole('button', { name: /^Buy 37 credits/ }).click();

      await menu.getByTestId('account-menu-credits').filter({ hasText: '42 credits' }).waitFor({ timeout: 15_000 });
      await expect(watcher.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).resolves.toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
