// A video delivered in real Chromium against the twin: a second click on Generate Video with the form unchanged is
// the same request (one Idempotency-Key, one job, one charge); the result says what made it, under the video and in
// the API's answer; "Download" saves the mp4 through a link signed as an attachment (no cross-origin read), from the
// Videos screen and from History; and a failed download says 'Download failed'.
import { randomUUID } from 'node:crypto';
import type { Download, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { PREVIEW_EXPLANATION } from '../../lambdas/contracts/preview.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { signIn } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

// A video renders in seconds on an idle machine; a shared 2-core machine under load takes minutes.
const VIDEO_TIMEOUT = 420_000;
const TEST_TIMEOUT = 600_000;
const email = uniqueEmail('video.delivery');
let session: TestPage;
let photo: Buffer;
useSignedInPage(email, (signedIn) => (session = signedIn), {
  fastPolling: true,
  prepare: async () => {
    photo = await tshirtPhoto(600, 700);
    const user = await signIn(twin(), email);
    await api(twin().apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 10 }, headers: { 'idempotency-key': randomUUID() } });
  },
});

const balance = async () => (await api(twin().apiUrl, 'GET', '/profile', { user: await signIn(twin(), email) })).body.current_credits as number;
const jobs = async () => (await api(twin().apiUrl, 'GET', '/jobs', { user: await signIn(twin(), email) })).body.items as { id: string; engine: unknown }[];

async function expectAttachment(page: Page, download: Download): Promise<void> {
  // The browser followed a link signed to be saved: the file name comes from Content-Disposition, not from a blob.
  const url = new URL(download.url());
  expect(url.protocol).toMatch(/^https?:$/);
  // An uploaded photo names no product: the studio's name, the kind, the size and the duration.
  expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="modelloop-video-720x1280-5s.mp4"');
  expect(download.suggestedFilename()).toBe('modelloop-video-720x1280-5s.mp4');
  expect(await download.failure()).toBeNull();
  expect(page.url()).not.toContain('amazonaws');
}

describe('a delivered video', () => {
  it('a second click with the form unchanged starts no second job; the result names its engine, downloads as an attachment, and a failed download says so', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
    await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByText('tee.jpg').waitFor();
    await page.getByRole('button', { name: 'Pivot', exact: true }).click();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });

    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/generate-video')) keys.push(request.headers()['idempotency-key'] ?? '');
    });
    const before = await balance();
    const answered = () => page.waitForResponse((response) => response.url().endsWith('/generate-video'));
    await Promise.all([answered(), page.getByRole('button', { name: 'Generate Video' }).click()]);
    await Promise.all([answered(), page.getByRole('button', { name: 'Generate Video' }).click()]);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await jobs()).toHaveLength(1);
    expect(await balance()).toBe(before - 1);

    const player = page.getByLabel('Generated video 1');
    await player.waitFor({ timeout: VIDEO_TIMEOUT });
    // What made it, under the video, as under every image.
    const note = page.getByTestId('engine-note');
    await note.filter({ hasText: 'Preview engine (no AI)' }).waitFor();
    expect(await note.innerText()).toContain(PREVIEW_EXPLANATION);
    // …and in the API's answers.
    expect((await jobs())[0]!.engine).toMatchObject({ model: expect.stringMatching(/engine/), preview: true, name: 'Preview engine (no AI)', note: PREVIEW_EXPLANATION });
    const urls = await api(twin().apiUrl, 'POST', '/get-video-url', { user: await signIn(twin(), email), body: { jobId: (await jobs())[0]!.id } });
    expect(urls.body.engine).toMatchObject({ preview: true, note: PREVIEW_EXPLANATION });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    await expectAttachment(page, download);

    await page.route('**/get-video-url', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const failed = toast(page, 'Download failed');
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Failed to download file');
    await page.unroute('**/get-video-url');

    // History: the video row names its engine, and its Download File saves it the same way.
    await page.goto('/studio/generations');
    const row = page.getByTestId('generation-row').filter({ hasText: 'Video' }).first();
    await row.getByTestId('generation-model').filter({ hasText: 'Preview engine (no AI)' }).waitFor();
    await row.getByRole('button', { name: 'More actions' }).click();
    const [fromHistory] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download File' }).click()]);
    await expectAttachment(page, fromHistory);
    expect(errors).toEqual([]);
  }, TEST_TIMEOUT);

  it('says before Generate what the preview engine makes of a custom prompt and what it leaves out, refuses one it renders none of uncharged, and says how each of three videos differs', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
    await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByText('tee.jpg').waitFor();
    await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '1:1', exact: true }).check({ force: true });
    await page.getByRole('radio', { name: '3', exact: true }).check({ force: true });
    const before = await balance();
    const jobsBefore = (await jobs()).length;

    // Nothing of it is a motion the engine makes: the form says so, and Generate is refused before any charge.
    const prompt = page.getByLabel('Motion prompt');
    await prompt.fill('something beautiful');
    const reading = page.getByTestId('motion-reading');
    await reading.filter({ hasText: 'The preview engine renders none of this prompt' }).waitFor();
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, 'renders none of this motion prompt').waitFor();
    expect(await balance()).toBe(before);
    expect(await jobs()).toHaveLength(jobsBefore);

    // Part of it is: the form names the preset and what it will not render, before anything is paid.
    await prompt.fill('the model twirls around and waves at the camera');
    await reading.filter({ hasText: 'The preview engine makes this as 360 Spin, for “the model twirls around”.' }).waitFor();
    await reading.getByText('Not rendered by the preview engine: waves at the camera.').waitFor();
    await page.getByRole('button', { name: 'Generate Video' }).click();
    await page.getByLabel('Generated video 3').waitFor({ timeout: VIDEO_TIMEOUT });
    expect(await balance()).toBe(before - 3);

    // Under the result: how each video differs, and what was not rendered (as images list it).
    expect(await page.getByTestId('video-description').allInnerTexts()).toEqual([
      'Output 1: steady camera.',
      'Output 2: turns the other way; the camera pans from left to right and back.',
      'Output 3: twice as fast; the camera moves in and back out.',
    ]);
    const notRendered = page.getByTestId('not-rendered').filter({ hasText: 'Not rendered by the preview engine: waves at the camera.' });
    await expect.poll(() => notRendered.count(), { timeout: 10_000 }).toBe(2); // under the prompt, and under the result
    expect(errors).toEqual([]);
  }, TEST_TIMEOUT);
});
