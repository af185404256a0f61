// The landing page: sections in the specification's order, its numbers, the FAQ's one-open rule, signed-out navigation.
import type { Browser } from 'playwright';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/users.js';
import { COMING_SOON_TOOLS } from '../../web/src/components/layout/coming-soon-tools.js';
import { openPage, TEST_PASSWORD, twin, uniqueEmail, useChromium } from './harness.js';

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
      ['Book Demo', '/book-demo'],
      ['Get Started FREE', '/auth?mode=signup'],
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
    for (const column of ['Product', 'Company', 'Resources', 'Legal']) {
      await expect(footer.getByRole('navigation', { name: column }).isVisible(), column).resolves.toBe(true);
    }
    // Every footer link leads to a page: none is a placeholder '#'.
    const footerLinks = await footer.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(footerLinks.filter((href) => !href || href === '#' || href.startsWith('#'))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('promises what every account gets: API access is not sold as the Studio pack\'s, and Product Avatar carries the sidebar\'s "Soon"', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto('/');
    const packs = page.locator('#pricing').getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    const studio = packs.filter({ has: page.getByRole('heading', { name: 'Studio', exact: true }) });
    await expect(studio.count()).resolves.toBe(1);
    // No pack lists API access as its own: it is listed once, for every account, under the packs.
    for (const pack of await packs.all()) expect(await pack.textContent()).not.toContain('API access');
    await expect(page.getByTestId('every-account').textContent()).resolves.toMatch(/Every account:.*API access/);
    // The offerings: a tool the sidebar lists under "More Tools Coming Soon" says Soon here too; the others do not.
    const offerings = page.locator('#product ul').first().getByRole('listitem');
    const soon = await offerings.evaluateAll((items) =>
      items.map((item) => [item.querySelector('h3')?.firstChild?.textContent?.trim(), item.querySelector('[data-testid="coming-soon-badge"]')?.textContent ?? null]),
    );
    expect(soon).toContainEqual(['Product Avatar', 'Soon']);
    expect(soon).toContainEqual(['AI Image Generation', null]);
    expect(soon).toContainEqual(['AI Video Generation', null]);
    for (const [tool, badge] of soon) expect(badge, String(tool)).toBe(COMING_SOON_TOOLS.includes(tool as never) ? 'Soon' : null);
    expect(errors).toEqual([]);
    await close();
  });

  it("opens sign-up from Get Started FREE, and Book Demo shows the demo video and a contact form that reaches the team", async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get Started FREE' }).click();
    await page.getByRole('heading', { name: 'Get Started' }).waitFor();
    await expect(page.getByText('Welcome Back').count()).resolves.toBe(0);

    await page.goto('/');
    await page.locator('main').getByRole('link', { name: 'Book Demo' }).click();
    await page.waitForURL('**/book-demo');
    const video = page.getByLabel('ModelLoop demo: a product photo as a looping model video');
    await expect(video.getAttribute('src')).resolves.toBe('/demo/demo-loop.mp4');
    const contact = page.locator('#contact');
    const company = `Shop ${Date.now()}`;
    await contact.getByLabel('Name').fill('Ada Visitor');
    await contact.getByLabel('Shop or company (optional)').fill(company);
    await contact.getByLabel('E-mail').fill('ada.visitor@example.com');
    await contact.getByLabel('What would you like to see?').fill('Necklaces on a model, about 40 a month.');
    await contact.getByRole('button', { name: 'Request a demo' }).click();
    await contact.getByText("Thanks! We'll write to ada.visitor@example.com within 24 hours to find a time.").waitFor();
    const mails = readFileSync(twin().env.SUPPORT_MAILBOX_FILE!, 'utf8').split('\n').filter((line) => line.includes(company));
    expect(mails).toHaveLength(1);
    expect(JSON.parse(mails[0]!)).toMatchObject({ to: 'support@modelloop.local', replyTo: 'ada.visitor@example.com' });
    expect(errors).toEqual([]);
    await close();
  });

  it('serves the legal pages, and /studio opens the studio (sign-in first when signed out)', async () => {
    const { page, close } = await openPage(browser);
    for (const [path, title] of [
      ['/privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
    }
    await page.goto('/studio');
    await page.waitForURL('**/auth');
    await expect(page.getByText('Page not found').count()).resolves.toBe(0);
    // Signed in (on the form /studio sent the visitor to), /studio opens the studio's first screen.
    const { email } = await createUser(twin(), uniqueEmail('landing.studio'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.goto('/studio');
    await page.waitForURL('**/studio/generate/video-generation');
    await page.getByRole('heading', { level: 1, name: 'Image to Video Generation' }).waitFor();
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
