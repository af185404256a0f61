// The route table: signed-out visitors of signed-in screens go to /auth, unknown paths get the 404 page.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { openPage, SIGNED_IN_ROUTES, signUpInUi, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

describe('routes', () => {
  it('sends a signed-out visitor of every signed-in screen to /auth', async () => {
    // The list is read from the route table: a reading that finds (almost) nothing must fail, not pass empty.
    expect(SIGNED_IN_ROUTES.length).toBeGreaterThan(15);
    const { page, errors, close } = await openPage(browser);
    for (const route of SIGNED_IN_ROUTES) {
      await page.goto(route);
      await expect.poll(() => new URL(page.url()).pathname, { message: `${route} → /auth`, timeout: 10_000 }).toBe('/auth');
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the 404 page for an unknown path, with a way home', async () => {
    const { page, close } = await openPage(browser);
    for (const path of ['/no-such-page', '/studio/unknown', '/dashboard/billing/extra']) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    }
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await close();
  });

  it('opens every signed-in screen for a signed-in user, with one h1 each', async () => {
    const { page, errors, close } = await openPage(browser);
    await signUpInUi(page, uniqueEmail('route.walker'));
    for (const route of SIGNED_IN_ROUTES) {
      await page.goto(route);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { message: `${route} has one h1`, timeout: 10_000 }).toBe(1);
      // /studio is the studio's entrance: it opens the video screen.
      expect(new URL(page.url()).pathname, route).toBe(route === '/studio' ? '/studio/generate/video-generation' : route);
    }
    expect(errors).toEqual([]);
    await close();
  });
});
