// The landing page: sections in the specification's order, its numbers, the FAQ's one-open rule, signed-out navigation.
import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { openPage, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

describe('landing page', () => {
  it('has the navigation and the sections in order, with their texts and numbers', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'ModelLoop' }).getAttribute('href')).resolves.toBe('/');
    for (const [name, href] of [
      ['Product', '#product'],
      ['Pricing', '#pricing'],
      ['Support', '#support'],
      ['Book Demo', '/auth'],
      ['Get Started FREE', '/auth'],
    ]) {
      await expect(nav.getByRole('link', { name: name!, exact: true }).getAttribute('href'), name).resolves.toBe(href);
    }

    const headings = await page.locator('main h2').allTextContents();
    expect(headings).toEqual([
      'The old way versus the ModelLoop way',
      'Three steps from photo to video',
      'Everything you need to sell with motion',
      'Pay as you go. Credits never expire.',
      'Bring your products to life today',
      'Frequently asked questions',
    ]);
    const hero = page.locator('main section').first();
    await expect(hero.getByRole('img').count()).resolves.toBe(2);
    await expect(hero.getByText('Before', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(hero.getByText('After', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(hero.getByRole('link', { name: 'Get Started FREE' }).isVisible()).resolves.toBe(true);
    await expect(hero.getByRole('link', { name: 'Book Demo' }).isVisible()).resolves.toBe(true);

    const text = (await page.locator('body').textContent()) ?? '';
    for (const expected of [
      'Upload an image or paste a product URL',
      'Pivot, Catwalk or 360 Spin',
      '2.5%',
      '4.1%',
      'Starter',
      '$5',
      '50 credits',
      'Professional',
      '$20',
      '200 credits',
      'Most Popular',
      'Studio',
      '$100',
      '1000 credits',
      'Generate 5 Videos FREE',
      'Watch Demo',
      'No credit card required',
      '5 videos free',
      'Perfect loop guarantee',
    ]) {
      expect(text, expected).toContain(expected);
    }
    const footer = page.getByRole('contentinfo');
    for (const column of ['Product', 'Company', 'Resources', 'Integrations', 'Legal']) {
      await expect(footer.getByRole('navigation', { name: column }).isVisible(), column).resolves.toBe(true);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps one FAQ answer open at a time, and the open one can be closed', async () => {
    const { page, close } = await openPage(browser);
    await page.goto('/#support');
    const faq = page.locator('#support');
    const questions = faq.getByRole('button');
    await expect(questions.count()).resolves.toBe(8);
    const expanded = async () =>
      (await Promise.all((await questions.all()).map((button) => button.getAttribute('aria-expanded')))).map((value) => value === 'true');

    expect(await expanded()).toEqual(Array(8).fill(false));
    await questions.nth(0).click();
    expect(await expanded()).toEqual([true, ...Array(7).fill(false)]);
    await faq.getByText(/Most videos are ready in about \d+ (seconds|minutes?), and in at most 5 minutes/).waitFor();
    await questions.nth(7).click();
    expect(await expanded()).toEqual([...Array(7).fill(false), true]);
    await expect(faq.getByText('refund within 7 days').isVisible()).resolves.toBe(true);
    await expect(faq.getByText(/Most videos are ready in about \d+ (seconds|minutes?), and in at most 5 minutes/).isVisible()).resolves.toBe(false);
    await questions.nth(7).click();
    expect(await expanded()).toEqual(Array(8).fill(false));
    await close();
  });

  it('loads no Amplify code and no zod for a signed-out visitor', async () => {
    const { page, close } = await openPage(browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto('/', { waitUntil: 'networkidle' });
    // config.json is read (the stage's measured video wait, said in the hero), and nothing of Amplify with it.
    const scripts = requested.filter((url) => url.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const sources = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
    // USER_SRP_AUTH appears in Amplify's sign-in code and in our auth module, never in the landing page's code.
    expect(sources.filter((source) => source.includes('USER_SRP_AUTH'))).toEqual([]);
    // zod (about 27 KB gzip) stays off the first load too: config.json's one figure is read without it. 'invalid_type'
    // is zod's issue code, a string minification keeps.
    expect(scripts.filter((_, index) => sources[index]!.includes('invalid_type'))).toEqual([]);
    await close();
  });
});
