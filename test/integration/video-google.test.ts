// The video workflow with the Gemini Omni adapter (PROVIDER_VIDEO=google) against the loopback fake of the Gemini API
// (test/support/fake-google.ts), on a twin configured as a cloud stage's video functions are, with only the API's
// address pointing at the fake: the same ASL and handlers create background interactions whose first and last
// keyframes are the product image, check them, store the downloaded clip, and finalize it (padded, seam measured).
// Refusals, interactions that fail and interactions that never finish end failed with one refund each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
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

/** The fake's interactions since a count. */
const interactionsSince = (count: number) => fake.interactions.slice(count);

async function delivered(user: TestUser, jobId: string) {
  const urls = await api(info.apiUrl, 'POST', '/get-video-url', { user, body: { jobId } });
  return probeUrl(urls.body.signedUrl);
}

describe('Gemini Omni videos on the video workflow', () => {
  it('8 s: one interaction whose first and last keyframes are the product image, delivered exact with its seam measured', async () => {
    const user = await createUser(info);
    const before = fake.interactions.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'Pivot', duration: 8, aspect_ratio: '9:16' });
    const ended = await pollUntilDone(info.apiUrl, user, started.body, 240_000);
    expect(ended, JSON.stringify(ended)).toMatchObject({ status: 'complete' });
    const [interaction, ...more] = interactionsSince(before);
    expect(more).toEqual([]);
    expect(interaction).toMatchObject({ model: GOOGLE_DEFAULTS.videoModel, durationSeconds: 8, aspectRatio: '9:16', background: true, task: 'image_to_video', delivery: 'uri' });
    expect(interaction!.lastFrame!.equals(interaction!.firstFrame)).toBe(true);
    const job = await jobOf(user, started.body.jobId);
    expect(job.model).toBe(`google:${GOOGLE_DEFAULTS.videoModel}`);
    expect(job.outputs[0]).toMatchObject({ width: 720, height: 1280 });
    expect(job.outputs[0].seam_score).toBeLessThanOrEqual(1);
    console.log(`seam score of an Omni-shaped 8 s clip through finalize: ${job.outputs[0].original_seam_score} as made, ${job.outputs[0].seam_score} delivered`);
    expect(await delivered(user, started.body.jobId)).toMatchObject({ codec: 'h264', width: 720, height: 1280, frames: 8 * 24 });
  }, 300_000);

  it('5 s 1:1: one 5 s 9:16 clip, padded to a square', async () => {
    const user = await createUser(info);
    const before = fake.interactions.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'Catwalk', duration: 5, aspect_ratio: '1:1' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 240_000)).toMatchObject({ status: 'complete' });
    expect(interactionsSince(before).map((interaction) => [interaction.durationSeconds, interaction.aspectRatio])).toEqual([[5, '9:16']]);
    expect(await delivered(user, started.body.jobId)).toMatchObject({ width: 720, height: 720, frames: 5 * 24 });
  }, 300_000);

  it('16 s: two 8 s clips, each from the product image to the product image', async () => {
    const user = await createUser(info);
    const before = fake.interactions.length;
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: '360 Spin', duration: 16, aspect_ratio: '16:9' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 300_000)).toMatchObject({ status: 'complete' });
    const clips = interactionsSince(before);
    expect(clips.map((clip) => clip.durationSeconds)).toEqual([8, 8]);
    for (const clip of clips) {
      expect(clip.firstFrame.equals(clips[0]!.firstFrame)).toBe(true);
      expect(clip.lastFrame!.equals(clips[0]!.firstFrame)).toBe(true);
    }
    expect(await delivered(user, started.body.jobId)).toMatchObject({ width: 1280, height: 720, frames: 16 * 24 });
  }, 360_000);
});

describe('Gemini Omni failures are refunded', () => {
  it('a refused interaction ends the job with the Content Policy message and one refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'please refuse me' });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.contentPolicy } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await refunds(user)).toEqual([1]);
  }, 200_000);

  it('an interaction that fails fails the output with a safe message and a refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'operation error' });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.providerFailed } });
    expect(await refunds(user)).toEqual([1]);
  }, 200_000);

  it('an interaction that never finishes is stopped after the workflow’s checks and refunded', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'never finishes' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 400_000)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.timedOut } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await refunds(user)).toEqual([1]);
  }, 420_000);
});
