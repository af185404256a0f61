// The video screen's feedback once Generate Video is pressed, at desktop and phone sizes: the button is locked while
// the request is in flight, a second click of the same submission starts nothing more (one job, one credit), the
// progress card is brought into view and a toast says the job started, with a link back to it. The expected time is
// one figure from one place: the stage's measured median in config.json, the same on the video screen and the landing
// page, with the progress bar's 300 s only as the upper bound.
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { openPage, PHONE, signInInUi, toast, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('video.feedback');
let session: TestPage;
let browser: Browser;
let photo: Buffer;
useSignedInPage(email, (signedIn, chromium) => ((session = signedIn), (browser = chromium)), {
  fastPolling: true,
  prepare: async () => void (photo = await tshirtPhoto(600, 700)),
});

async function fillVideoForm(page: Page): Promise<void> {
  await page.goto('/studio/generate/video-generation');
  await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
  await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByText('tee.jpg').waitFor();
  await page.getByRole('button', { name: 'Pivot', exact: true }).click();
}

/** Whether the element's top lies inside the visible part of the window. */
const topIsInView = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.top < (globalThis as any).innerHeight;
  });

const jobRows = (page: Page) => page.getByRole('list', { name: 'Recent video jobs' }).getByRole('listitem');

async function configuredSeconds(page: Page): Promise<number> {
  const config = await page.evaluate(async () => (await (await fetch('/config.json')).json()) as { expectedVideoSeconds?: number });
  expect(config.expectedVideoSeconds).toBeGreaterThan(0);
  return config.expectedVideoSeconds!;
}

/** The figure as people say it: "about 20 seconds", "about 1 minute". */
const aboutSeconds = (seconds: number) => {
  const fives = Math.max(5, Math.round(seconds / 5) * 5);
  if (fives < 60) return `about ${fives} seconds`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};

describe('video feedback', () => {
  it('promises the measured median on the video screen and the landing page, the 300 s bar only as the bound', async () => {
    const { page } = session;
    const seconds = await configuredSeconds(page);
    await page.goto('/studio/generate/video-generation');
    await page.getByText(`Your looping video appears here: usually ready in ${aboutSeconds(seconds)}.`).waitFor();
    await page.goto('/');
    const promise = `Most videos are ready in ${aboutSeconds(seconds)}, and in at most 5 minutes`;
    await page.getByText(promise, { exact: false }).first().waitFor();
    expect(await page.getByText('2-5 minutes').count()).toBe(0);
  });

  it('locks Generate Video while the request is in flight, starts one paid job for a double click, scrolls the progress into view and says so', async () => {
    const { page, errors } = session;
    await fillVideoForm(page);
    // The request is held back a moment, as a slow network would, so the locked button can be seen.
    let requests = 0;
    await page.route('**/api/generate-video', async (route) => {
      requests += 1;
      await new Promise((done) => setTimeout(done, 1_500));
      await route.continue();
    });
    const generate = page.getByRole('button', { name: 'Generate Video' });
    await generate.scrollIntoViewIfNeeded();
    await generate.evaluate((button: any) => {
      button.click();
      button.click();
    });
    await expect.poll(() => generate.isDisabled()).toBe(true);
    await generate.click({ force: true }).catch(() => undefined);

    await toast(page, 'Video generation started').waitFor({ timeout: 30_000 });
    await page.getByRole('progressbar', { name: 'Video generation progress' }).waitFor();
    await expect.poll(() => topIsInView(page, 'text=Generating your video…'), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => generate.isEnabled()).toBe(true);
    // The toast's link brings the card back after the seller scrolled away.
    await page.evaluate(() => (globalThis as any).scrollTo(0, (globalThis as any).document.body.scrollHeight));
    await expect.poll(() => topIsInView(page, 'text=Generating your video…')).toBe(false);
    await toast(page, 'Video generation started').getByRole('button', { name: 'View progress' }).click();
    await expect.poll(() => topIsInView(page, 'text=Generating your video…'), { timeout: 5_000 }).toBe(true);

    await expect.poll(() => jobRows(page).count(), { timeout: 20_000 }).toBe(1);
    expect(requests).toBe(1);
    await page.getByText('You have 4 credits').waitFor();
    expect(errors).toEqual([]);
  });

  it('on a phone, the started job is brought into view below the form', async () => {
    const phone = await openPage(browser, PHONE);
    try {
      await signInInUi(phone.page, email);
      await fillVideoForm(phone.page);
      const generate = phone.page.getByRole('button', { name: 'Generate Video' });
      await generate.scrollIntoViewIfNeeded();
      await generate.click();
      await toast(phone.page, 'Video generation started').waitFor({ timeout: 30_000 });
      await expect.poll(() => topIsInView(phone.page, 'text=Generating your video…'), { timeout: 5_000 }).toBe(true);
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
