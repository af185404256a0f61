// One channel for "work ended" on the video screen. While the realtime socket is open, the page asks nothing about a
// running job: no poll-operation call and no re-read of the job list beyond the ones a push (or the start and the
// end themselves) asks for, and the video still arrives, by push. With no socket (config.json without a
// websocketUrl), the page's polling brings the same result. The poll interval is turned down (the page's test-only
// localStorage knob), so a page that polled while the socket is open would show it within a second.
import type { Browser, Page, Request, WebSocket } from 'playwright';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { signIn } from '../support/users.js';
import { openPage, signInInUi, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const VIDEO_TIMEOUT = 150_000;
const POLL_INTERVAL_KNOB = 'modelloop.videoPollIntervalMs';

let session: TestPage;
let chromium: Browser;
let photo: Buffer;
const email = uniqueEmail('live.or.poll');
useSignedInPage(email, (signedIn, browser) => ((session = signedIn), (chromium = browser)), {
  fastPolling: true,
  prepare: async () => void (photo = await tshirtPhoto(600, 700)),
});

/** The requests of the page to one API path (e.g. '/poll-operation', '/jobs'), counted from now on. */
function countRequests(page: Page, path: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname.endsWith(`/api${path}`)) counter.count += 1;
  });
  return counter;
}

/** The pushes of one live resource the page's socket receives, counted from now on. */
function countPushes(page: Page, resource: string): { readonly count: number } {
  const counter = { count: 0 };
  page.on('websocket', (socket: WebSocket) =>
    socket.on('framereceived', (frame) => {
      if (String(frame.payload).includes(`"resource":"${resource}"`)) counter.count += 1;
    }),
  );
  return counter;
}

/** Waits until the twin has saved a socket for the user that was opened after `since`. */
async function socketOpenedSince(userId: string, since: Date): Promise<void> {
  Object.assign(process.env, twin().env);
  const { connectionsOf } = await import('../../lambdas/data/connections-repo.js');
  await expect
    .poll(async () => (await connectionsOf(userId)).some((connection) => connection.connectedAt >= since), { timeout: 20_000 })
    .toBe(true);
}

async function generatePivotVideo(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Image to Video Generation' }).waitFor();
  await page.getByLabel('Upload a product image').setInputFiles({ name: 'tee.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByText('tee.jpg').waitFor();
  await page.getByRole('button', { name: 'Pivot', exact: true }).click();
  await page.getByRole('radio', { name: '5 s', exact: true }).check({ force: true });
  await page.getByRole('button', { name: 'Generate Video' }).click();
  await page.getByTestId('video-elapsed').waitFor();
}

describe('the end of a video reaches the page one way', () => {
  it('with the socket open, polls nothing while the video runs and shows it when the push says it is done', async () => {
    const { page, errors } = session;
    const { sub } = await signIn(twin(), email);
    const pushedJobs = countPushes(page, 'jobs');
    const since = new Date(Date.now() - 1_000);
    await page.goto('/studio/generate/video-generation');
    await socketOpenedSince(sub, since);

    const statusPolls = countRequests(page, '/poll-operation');
    const jobReads = countRequests(page, '/jobs');
    const pushesBefore = pushedJobs.count;
    await generatePivotVideo(page);
    await page.getByLabel('Generated video 1').waitFor({ timeout: VIDEO_TIMEOUT });

    expect(statusPolls.count).toBe(0);
    const pushes = pushedJobs.count - pushesBefore;
    expect(pushes).toBeGreaterThan(0);
    // Each read follows a push, the start or the end (both read the list once), or the socket's opening (the page
    // reads once what changed before it; on a loaded machine that read can land after counting began). None comes
    // from a timer: with the poll interval at 500 ms, a page polling the list would read it dozens of times.
    expect(jobReads.count).toBeLessThanOrEqual(pushes + 3);
    expect(errors).toEqual([]);
  });

  it('with no socket configured, polls poll-operation until the video is there', async () => {
    const noSocket = await openPage(chromium);
    try {
      const { page, errors } = noSocket;
      await page.addInitScript((key) => (globalThis as any).localStorage.setItem(key, '500'), POLL_INTERVAL_KNOB);
      await page.route('**/config.json', async (route) => {
        const config = (await (await route.fetch()).json()) as Record<string, unknown>;
        delete config.websocketUrl;
        await route.fulfill({ json: config });
      });
      let opened = 0;
      page.on('websocket', () => (opened += 1));
      await signInInUi(page, email);
      await page.goto('/studio/generate/video-generation');

      const statusPolls = countRequests(page, '/poll-operation');
      await generatePivotVideo(page);
      await page.getByLabel('Generated video 1').waitFor({ timeout: VIDEO_TIMEOUT });

      expect(opened).toBe(0);
      expect(statusPolls.count).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await noSocket.close();
    }
  });
});
