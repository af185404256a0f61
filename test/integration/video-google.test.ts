// The video workflow with the Veo 3.1 adapter (PROVIDER_VIDEO=google) against the loopback fake of the Gemini API
// (test/support/fake-google.ts), on a twin configured as a cloud stage's video functions are, with only the API's
// address pointing at the fake: the same ASL and handlers start long-running operations whose first and last frames
// are the product image, check them, store the downloaded clip, and finalize it (retimed, padded, seam measured).
// Refusals, operations that end in error and operations that never finish end failed with one refund each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { LOCAL_WAIT_MS_ENV } from '../../lib/local/stepfunctions.js';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { FAKE_GOOGLE_API_KEY, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import type { TwinInfo } from '../support/global-twin.js';
import { createUser, type TestUser } from '../support/users.js';
import { generateVideo, pollUntilDone, probeUrl } from '../support/video.js';

let twin: Twin;
let info: TwinInfo;
let fake: FakeGoogle;
let dataDir: string;
let photo: Buffer;
let ledgerRepo: typeof import('../../lambdas/data/credits-repo.js');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-google-video-'));
  fake = await startFakeGoogle();
  Object.assign(process.env, {
    PROVIDER_VIDEO: 'google',
    GOOGLE_API_KEY: FAKE_GOOGLE_API_KEY,
    GOOGLE_API_BASE_URL: fake.baseUrl,
    [LOCAL_WAIT_MS_ENV]: '200',
  });
  twin = await startTwin({ dataDir: join(dataDir, 'twin') });
  info = twin.info;
  ledgerRepo = await import('../../lambdas/data/credits-repo.js');
  photo = await tshirtPhoto();
}, 120_000);

afterAll(async () => {
  await twin?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const balanceOf = async (user: TestUser) => (await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits;

async function jobOf(user: TestUser, jobId: string) {
  const { body } = await api(info.apiUrl, 'GET', '/jobs', { user });
  return body.items.find((job: { id: string }) => job.id === jobId);
}

async function refunds(user: TestUser): Promise<number[]> {
  const entries = await ledgerRepo.listWholeLedger(user.sub);
  expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(await balanceOf(user));
  return entries.filter((entry) => entry.transaction_type === 'refund').map((entry) => entry.amount);
}

/** The fake's operations for one job, identified by the product frame their requests carried. */
const operationsSince = (count: number) => fake.operations.slice(count);

async function delivered(user: TestUser, jobId: string) {
  const urls = await api(info.apiUrl, 'POST', '/get-video-url', { user, body: { jobId } });
  return probeUrl(urls.body.signedUrl);
}

describe('Veo videos on the video workflow', () => {
  it('8 s: one clip whose first and last frames are the product image, delivered exact with its seam measured', async () => {
    const user = await createUser(info);
    const before = fake.operations.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'Pivot', duration: 8, aspect_ratio: '9:16' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 240_000)).toMatchObject({ status: 'complete' });
    const [operation, ...more] = operationsSince(before);
    expect(more).toEqual([]);
    expect(operation).toMatchObject({ durationSeconds: 8, aspectRatio: '9:16' });
    expect(operation!.lastFrame!.equals(operation!.firstFrame)).toBe(true);
    const job = await jobOf(user, started.body.jobId);
    expect(job.model).toBe('google:veo-3.1-fast-generate-preview');
    expect(job.outputs[0]).toMatchObject({ width: 720, height: 1280 });
    expect(job.outputs[0].seam_score).toBeLessThanOrEqual(1);
    console.log(`seam score of a Veo-shaped 8 s clip through finalize: ${job.outputs[0].original_seam_score} as made, ${job.outputs[0].seam_score} delivered`);
    expect(await delivered(user, started.body.jobId)).toMatchObject({ codec: 'h264', width: 720, height: 1280, frames: 8 * 24 });
  }, 300_000);

  // The fake reads the Veo guide of November 2025 ("Must be "8" when using extension or interpolation"): the 6 s clip
  // with lastFrame is refused, and the 8 s clip asked for instead is retimed to 5 s.
  it('5 s 1:1: the 6 s clip refused with lastFrame, an 8 s 9:16 clip retimed to exactly 5 s and padded to a square', async () => {
    const user = await createUser(info);
    const before = fake.operations.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'Catwalk', duration: 5, aspect_ratio: '1:1' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 240_000)).toMatchObject({ status: 'complete' });
    expect(operationsSince(before).map((operation) => [operation.durationSeconds, operation.aspectRatio])).toEqual([[8, '9:16']]);
    expect(await delivered(user, started.body.jobId)).toMatchObject({ width: 720, height: 720, frames: 5 * 24 });
  }, 300_000);

  it('16 s: two 8 s clips, each from the product image to the product image', async () => {
    const user = await createUser(info);
    const before = fake.operations.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: '360 Spin', duration: 16, aspect_ratio: '16:9' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 300_000)).toMatchObject({ status: 'complete' });
    const clips = operationsSince(before);
    expect(clips.map((clip) => clip.durationSeconds)).toEqual([8, 8]);
    for (const clip of clips) {
      expect(clip.firstFrame.equals(clips[0]!.firstFrame)).toBe(true);
      expect(clip.lastFrame!.equals(clips[0]!.firstFrame)).toBe(true);
    }
    expect(await delivered(user, started.body.jobId)).toMatchObject({ width: 1280, height: 720, frames: 16 * 24 });
  }, 360_000);
});

describe('Veo failures are refunded', () => {
  it('a filtered clip ends the job with the Content Policy message and one refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'please refuse me' });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.contentPolicy } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await refunds(user)).toEqual([1]);
  }, 200_000);

  it('an operation that ends in error fails the output with a safe message and a refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'operation error' });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.providerFailed } });
    expect(await refunds(user)).toEqual([1]);
  }, 200_000);

  it('an operation that never finishes is stopped after the workflow’s checks and refunded', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'never finishes' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 400_000)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.timedOut } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await refunds(user)).toEqual([1]);
  }, 420_000);
});
