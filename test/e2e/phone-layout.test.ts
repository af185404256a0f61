// Every screen at 390×844 (a phone): the page is never wider than the viewport, and the screen's main action is on
// screen. The route list is read from the app's route table (web/src/app/app-routes.tsx) plus the landing page, so a
// new screen without an entry below fails here instead of being skipped.
import type { Browser, Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { openPage, PHONE, signUpInUi, TABLE_ROUTES, uniqueEmail, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));


/** Each screen's main action: what a seller must be able to reach without scrolling sideways. */
const MAIN_ACTION: Record<string, (page: Page) => Locator> = {
  '/auth': (page) => page.getByRole('button', { name: 'Sign In', exact: true }),
  '/dashboard': (page) => page.getByRole('main').getByRole('link', { name: 'Generate Video' }),
  '/generate': (page) => page.getByRole('button', { name: 'Generate Video' }),
  '/coming-soon': (page) => page.getByRole('link', { name: 'Try Image to Video Generation' }),
  '/dashboard/billing': (page) => page.getByRole('button', { name: /^Buy .* credits for/ }),
  '/dashboard/usage': (page) => page.getByTestId('usage-bought'),
  '/dashboard/prices': (page) => page.getByRole('main').getByRole('link', { name: 'Buy credits' }),
  '/settings': (page) => page.getByRole('link', { name: 'Buy More Credits' }),
  '/api': (page) => page.getByRole('button', { name: 'Create key' }),
  '/community': (page) => page.getByRole('heading', { level: 1, name: 'Community' }),
  '/support': (page) => page.getByRole('button', { name: 'Send message' }),
  '/support/guides': (page) => page.getByRole('heading', { level: 1, name: 'Guides' }),
  '/studio/clothing': (page) => page.getByRole('button', { name: 'New Item' }).first(),
  '/studio/models': (page) => page.getByRole('heading', { level: 1, name: 'Models' }),
  '/studio/generations': (page) => page.getByRole('button', { name: 'Refresh' }),
  '/studio/generate/image-generation': (page) => page.getByRole('button', { name: 'Generate Image' }),
  '/studio/generate/video-generation': (page) => page.getByRole('button', { name: 'Generate Video' }),
  '/studio/generate/batch-generation': (page) => page.getByRole('button', { name: 'Add to Batch' }),
  '/studio/generate/edit': (page) => page.getByRole('button', { name: 'Apply Edit' }),
  '/studio/generate/upscale': (page) => page.getByRole('button', { name: /^Upscale to/ }),
  '/studio/generate/packshot': (page) => page.getByRole('button', { name: /^Make packshot/ }),
  // /studio opens the studio's video screen.
  '/studio': (page) => page.getByRole('button', { name: 'Generate Video' }),
  '/book-demo': (page) => page.getByRole('button', { name: 'Request a demo' }),
  '/privacy': (page) => page.getByRole('heading', { level: 1, name: 'Privacy Policy' }),
  '/terms': (page) => page.getByRole('heading', { level: 1, name: 'Terms of Service' }),
};

/** In the page (a script, as this project's test code has no DOM types): how wide the document is. */
const DOCUMENT_WIDTH = 'Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)';

/** In the page: the innermost elements that reach past the right edge (an icon named by its holder), to say what widens it. */
const WIDEST_ELEMENTS = `(() => {
  const past = [...document.querySelectorAll('body *')]
    .map((element) => element.closest('svg')?.parentElement ?? element)
    .filter((element, index, all) => all.indexOf(element) === index && element.getBoundingClientRect().right > ${PHONE.width} + 1);
  const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
  return innermost.slice(0, 4).map((element) =>
    '<' + element.tagName.toLowerCase() + ' class="' + String(element.getAttribute('class') ?? '').slice(0, 60) + '">' +
    (element.textContent ?? '').trim().slice(0, 30) + ' (right ' + Math.round(element.getBoundingClientRect().right) + ')');
})()`;

/** The document's width, and whether `target` lies inside the viewport's width. */
async function layoutOf(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const documentWidth = await page.evaluate<number>(DOCUMENT_WIDTH);
  return { documentWidth, actionInside: box !== null && box.x >= 0 && box.x + box.width <= PHONE.width && box.width > 0 };
}

/** What is wrong with `route` on a phone: '' when the page fits and its main action is on screen. */
async function problemsOf(page: Page, route: string, target: Locator): Promise<string> {
  await target.waitFor({ state: 'visible', timeout: 15_000 });
  // Late content (lists, images) can widen a page after the action shows: measure once the network is quiet.
  await page.waitForLoadState('networkidle');
  const { documentWidth, actionInside } = await layoutOf(page, target);
  const problems = [
    documentWidth > PHONE.width ? `${route}: the page is ${documentWidth} px wide: ${(await page.evaluate<string[]>(WIDEST_ELEMENTS)).join(', ')}` : '',
    actionInside ? '' : `${route}: the main action is outside the screen`,
  ];
  return problems.filter(Boolean).join('; ');
}

describe('phone layout (390×844)', () => {
  it('the route table is what this sweep covers', () => {
    expect(TABLE_ROUTES.length).toBeGreaterThan(15);
    expect(TABLE_ROUTES.filter((route) => !(route in MAIN_ACTION))).toEqual([]);
  });

  it('the landing page fits, keeps Get Started FREE on screen and reaches Product, Pricing and Support through its menu', async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    await page.goto('/');
    expect(await problemsOf(page, '/', page.getByRole('banner').getByRole('link', { name: 'Get Started FREE' }))).toBe('');
    await page.evaluate('window.scrollTo(0, 0)');
    for (const [anchor, section] of [
      ['Product', 'product'],
      ['Pricing', 'pricing'],
      ['Support', 'support'],
    ] as const) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.locator('#landing-menu').getByRole('link', { name: anchor }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#${section}`);
      await expect.poll(() => page.locator(`#${section}`).evaluate((element) => Math.round(element.getBoundingClientRect().top) < 844)).toBe(true);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('every signed-out and signed-in screen is no wider than the phone and shows its main action', async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    await page.goto('/auth');
    const problems = [await problemsOf(page, '/auth', MAIN_ACTION['/auth']!(page))];

    // A deliberately long address (40+ characters, no break opportunity before the @): every screen that shows it
    // must wrap it rather than widen the page.
    const longEmail = uniqueEmail('phone.sweep.with-a-deliberately-long-mailbox-name');
    expect(longEmail.length).toBeGreaterThanOrEqual(40);
    await signUpInUi(page, longEmail);
    for (const route of TABLE_ROUTES.filter((path) => path !== '/auth')) {
      await page.goto(route);
      problems.push(await problemsOf(page, route, MAIN_ACTION[route]!(page)));
    }
    expect(problems.filter(Boolean)).toEqual([]);
    // The shell's navigation stays reachable on a phone: the drawer opens with the studio's links.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Studio' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('Videos with its form filled and a result shown fits the phone: every tab, preset and option whole on screen', async () => {
    const { page, errors, close } = await openPage(browser, PHONE);
    await page.addInitScript(() => (globalThis as any).localStorage.setItem('modelloop.videoPollIntervalMs', '500'));
    await signUpInUi(page, uniqueEmail('phone.videos'));
    await page.goto('/studio/generate/video-generation');
    const generate = MAIN_ACTION['/studio/generate/video-generation']!(page);
    await generate.waitFor();
    // Each control a seller touches lies whole inside the screen, its text not cut off.
    const clipped = async (): Promise<string[]> => {
      const names = ['Upload', 'Your images', 'Product URL', 'Pivot', 'Catwalk', '360 Spin', 'Generate Video'];
      const found: string[] = [];
      for (const name of names) {
        const control = page.getByRole('button', { name, exact: true }).first();
        await control.scrollIntoViewIfNeeded();
        const fits = await control.evaluate(
          (element: any, width: number) => {
            const box = element.getBoundingClientRect();
            return box.left >= 0 && box.right <= width && element.scrollWidth <= element.clientWidth + 1;
          },
          PHONE.width,
        );
        if (!fits) found.push(name);
      }
      return found;
    };
    await page.getByRole('button', { name: 'Product URL', exact: true }).click();
    expect(await problemsOf(page, 'Videos (Product URL)', generate)).toBe('');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: await tshirtPhoto(600, 700) });
    await page.getByRole('button', { name: '360 Spin', exact: true }).click();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '1:1', exact: true }).check({ force: true });
    expect(await problemsOf(page, 'Videos (form filled)', generate)).toBe('');
    expect(await clipped()).toEqual([]);

    await generate.click();
    await page.getByLabel('Generated video 1').waitFor({ timeout: 150_000 });
    await page.getByRole('list', { name: 'Recent video jobs' }).getByText('complete').first().waitFor({ timeout: 30_000 });
    expect(await problemsOf(page, 'Videos (result shown)', page.getByRole('button', { name: 'Download', exact: true }))).toBe('');
    expect(await clipped()).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 300_000);
});
