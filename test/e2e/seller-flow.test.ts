// The seller's flow in real Chromium against the local twin: a finished on-model photo leads straight to a video of
// it (nothing uploaded again), several videos run at once each with its own progress row, "Number of videos: 3"
// delivers three different files, and a video that ends while the seller is on another screen is announced by a
// toast with a link, the Video screen showing the result on return. The poll interval is shortened through the
// page's test-only localStorage knob; the toast and the Result panel follow the pushed job list.
import { createHash, randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const VIDEO_TIMEOUT = 150_000;
const ITEM_NAME = 'Flow tee';
const email = uniqueEmail('seller.flow');

let session: TestPage;
useSignedInPage(email, (signedIn) => (session = signedIn), {
  fastPolling: true,
  prepare: async () => {
    const user = await signIn(twin(), email);
    await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), ITEM_NAME);
    // The sign-up credits (5) would not pay for this tour; the labelled test payment adds some.
    const bought = await api(twin().apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 20 }, headers: { 'idempotency-key': randomUUID() } });
    expect(bought.status).toBe(200);
  },
});

const recentJobs = (page: Page) => page.getByRole('list', { name: 'Recent video jobs' });

/** The generate-video bodies the page sends, and whether it uploaded anything on the way. */
function watchRequests(page: Page) {
  const bodies: Array<Record<string, unknown>> = [];
  let uploads = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/generate-video')) bodies.push(JSON.parse(request.postData() ?? '{}'));
    if (request.url().includes('upload-url') || request.method() === 'PUT') uploads++;
  });
  return { bodies, uploads: () => uploads };
}

describe('the seller’s flow', () => {
  it('on-model photo → Make a video from it, with no re-upload → the video completes', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/image-generation');
    await page.getByRole('radio', { name: ITEM_NAME, exact: true }).click();
    await page.getByLabel('Model description').fill('young female model, relaxed pose');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByTestId('generation-result').waitFor({ timeout: 120_000 });

    const watched = watchRequests(page);
    await page.getByRole('navigation', { name: 'Next steps' }).getByRole('link', { name: /Make a video/ }).click();
    await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
    expect(page.url()).toMatch(/\/studio\/generate\/video-generation\?source=generation%3A[\w-]+$/);
    expect(await page.getByRole('button', { name: 'Your images' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Pivot', exact: true }).click();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByLabel('Generated video 1').waitFor({ timeout: VIDEO_TIMEOUT });

    expect(watched.bodies).toHaveLength(1);
    expect(watched.bodies[0]).toMatchObject({ generationId: expect.any(String), prompt: 'Pivot', duration: 5 });
    expect(watched.bodies[0]).not.toHaveProperty('imageBase64');
    expect(watched.uploads(), 'nothing was uploaded again').toBe(0);
    expect(errors).toEqual([]);
  });

  it('runs two videos at once, each with its own progress row; three outputs are three different files', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('button', { name: 'Your images' }).click();
    await page.getByRole('radio', { name: ITEM_NAME, exact: true }).click();
    await page.getByRole('button', { name: '360 Spin', exact: true }).click();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '1:1', exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByText('Generating your video…').waitFor();

    // The button is not locked while the first job runs.
    await page.getByRole('button', { name: 'Catwalk', exact: true }).click();
    await page.getByRole('radio', { name: '3', exact: true }).check({ force: true });
    expect(await page.getByRole('button', { name: 'Generate Video' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await expect.poll(() => page.getByTestId('job-progress').count(), { timeout: 20_000 }).toBe(2);

    // The Result panel follows the newer job: its three videos.
    await page.getByLabel('Generated video 3').waitFor({ timeout: VIDEO_TIMEOUT });
    const sources = await page.locator('video[aria-label^="Generated video"]').evaluateAll((videos: any[]) => videos.map((video) => video.src));
    expect(sources).toHaveLength(3);
    const checksums = await Promise.all(
      sources.map(async (url: string) => createHash('sha256').update(Buffer.from(await (await fetch(url)).arrayBuffer())).digest('hex')),
    );
    expect(new Set(checksums).size, 'three outputs are three different videos').toBe(3);

    // Both jobs end complete in the list, each row leaving its progress bar.
    await expect.poll(() => recentJobs(page).getByText('complete', { exact: true }).count(), { timeout: VIDEO_TIMEOUT }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByTestId('job-progress').count(), { timeout: VIDEO_TIMEOUT }).toBe(0);
    expect(errors).toEqual([]);
  }, 300_000);

  it('announces a video that ends on another screen with a toast and a link; back on the page, the panel shows it', async () => {
    const { page, errors } = session;
    const startAndLeave = async (duration: string) => {
      await page.goto('/studio/generate/video-generation');
      await page.getByRole('button', { name: 'Your images' }).click();
      await page.getByRole('radio', { name: ITEM_NAME, exact: true }).click();
      await page.getByRole('button', { name: 'Pivot', exact: true }).click();
      await page.getByRole('radio', { name: '1', exact: true }).check({ force: true });
      await page.getByRole('radio', { name: duration, exact: true }).check({ force: true });
      await page.getByRole('button', { name: 'Generate Video' }).click();
      await page.getByText('Generating your video…').waitFor();
      await page.getByRole('link', { name: 'Clothing', exact: true }).first().click();
      await page.waitForURL('**/studio/clothing');
      const ready = toast(page, 'Your video is ready');
      await ready.waitFor({ timeout: VIDEO_TIMEOUT });
      return ready;
    };

    // The toast's link opens that job's videos.
    const first = await startAndLeave('8 s');
    // Said once: one toast for the finished job, not one per part of the app that follows jobs.
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'Your video is ready' }).count()).toBe(1);
    await first.getByRole('button', { name: 'View video' }).click();
    await page.waitForURL(/video-generation\?job=/);
    await page.getByLabel('Generated video 1').waitFor({ timeout: 20_000 });

    // Coming back by the browser's Back button: the panel shows the true state, not a timer still running.
    await startAndLeave('5 s');
    await page.goBack();
    await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
    await page.getByLabel('Generated video 1').waitFor({ timeout: 20_000 });
    expect(await page.getByText('Generating your video…').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 300_000);
});
