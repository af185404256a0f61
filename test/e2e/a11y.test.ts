// axe-core in Chromium: no serious or critical violation on the landing, auth and signed-in pages, desktop and phone.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { DESKTOP, openPage, PHONE, seriousAxeViolations, signUpInUi, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

describe('accessibility', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`finds no serious or critical violation on the public pages (${label})`, async () => {
      const { page, close } = await openPage(browser, viewport);
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('#support button').first().click(); // an open FAQ item is scanned too
      expect(await seriousAxeViolations(page), '/').toEqual([]);
      await page.goto('/auth');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      expect(await seriousAxeViolations(page), '/auth').toEqual([]);
      await page.goto('/nowhere');
      await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
      expect(await seriousAxeViolations(page), '404').toEqual([]);
      await close();
    });

    it(`finds no serious or critical violation on the signed-in pages (${label})`, async () => {
      const { page, close } = await openPage(browser, viewport);
      await signUpInUi(page, uniqueEmail(`axe.${label}`));
      for (const route of ['/dashboard', '/settings', '/dashboard/billing', '/dashboard/usage', '/dashboard/prices', '/support', '/studio/generate/video-generation']) {
        await page.goto(route);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await seriousAxeViolations(page), route).toEqual([]);
      }
      await close();
    });
  }
});
