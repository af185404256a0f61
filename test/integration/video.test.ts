// Video jobs on the local twin: the real ASL (aws-local-stepfunctions) with the real task handlers, the local engine,
// ffmpeg, DynamoDB Local and s3rver; checked through the HTTP API, ffprobe and the ledger.
import { createHash, randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { INLINE_IMAGE_MAX_BYTES } from '../../lambdas/contracts/inline-image.js';
import { CANCELLED_BY_USER, VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { readDigitalSourceType } from '../../lambdas/domain/images/provenance.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem, onModelPhoto } from '../support/sources.js';
import { createUser, type TestUser } from '../support/users.js';
import { generateVideo, isFaststart, pollUntilDone, probeUrl } from '../support/video.js';

const twin = inject('twin');
// The domain core reads its table names and endpoints from the environment, as the deployed functions do.
Object.assign(process.env, twin.env);
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const jobsRepo = await import('../../lambdas/data/jobs-repo.js');

const sfn = new SFNClient({ endpoint: twin.env.AWS_ENDPOINT_URL_SFN, region: twin.region, credentials: LOCAL_CREDENTIALS });
const executionStatus = async (arn: string) => (await sfn.send(new DescribeExecutionCommand({ executionArn: arn }))).status;
/** The execution's status once it has ended: the job is complete a few steps before the workflow's last one. */
async function endedStatus(arn: string) {
  for (let attempt = 0; attempt < 120; attempt++) {
    const status = await executionStatus(arn);
    if (status !== 'RUNNING') return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return executionStatus(arn);
}

let photo: Buffer;
beforeAll(async () => {
  photo = await tshirtPhoto();
});

async function balanceOf(user: TestUser): Promise<number> {
  const { body } = await api(twin.apiUrl, 'GET', '/profile', { user });
  return body.current_credits;
}

/** The ledger sums to the balance, and lists exactly these refunds. */
async function expectLedger(user: TestUser, refunds: number): Promise<void> {
  const entries = await ledgerRepo.listWholeLedger(user.sub);
  expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(await balanceOf(user));
  expect(entries.filter((entry) => entry.transaction_type === 'refund')).toHaveLength(refunds);
}

async function jobsOf(user: TestUser): Promise<any[]> {
  const { status, body } = await api(twin.apiUrl, 'GET', '/jobs', { user });
  expect(status).toBe(200);
  return body.items;
}

describe('a video job on the twin', () => {
  it('runs the real workflow to a looping H.264 MP4 of the exact duration and size, with a seam score, a poster and a history row', async () => {
    const user = await createUser(twin);
    const started = await generateVideo(twin.apiUrl, user, photo, { prompt: 'Pivot' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ jobId: expect.any(String), operationName: expect.stringContaining(':execution:'), newCredits: SIGNUP_CREDITS - 1 });

    const polled = await pollUntilDone(twin.apiUrl, user, started.body);
    expect(polled).toEqual({ done: true, status: 'complete' });
    expect(await endedStatus(started.body.operationName)).toBe('SUCCEEDED');

    const urls = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    expect(urls.status).toBe(200);
    expect(urls.body.signedUrls).toEqual([urls.body.signedUrl]);
    const video = await probeUrl(urls.body.signedUrl);
    expect(video).toMatchObject({ codec: 'h264', pixelFormat: 'yuv420p', width: 720, height: 1280, frames: 8 * 24, fps: 24 });
    expect(video.durationSeconds).toBeCloseTo(8, 1);
    expect(isFaststart(video.bytes)).toBe(true);
    // AI provenance in the file itself (an XMP uuid box after the last box), read back from the download.
    expect(await readDigitalSourceType(video.bytes)).toBe('compositeSynthetic');

    const [job] = await jobsOf(user);
    expect(job).toMatchObject({ id: started.body.jobId, status: 'complete', prompt: 'Pivot', duration: 8, aspect_ratio: '9:16', output_count: 1 });
    expect(job.seam_score).toBeLessThanOrEqual(1);
    expect(job.outputs[0].seam_score).toBe(job.seam_score);
    expect(job.video_url).toMatch(new RegExp(`^${user.sub}/videos/${job.id}/video-1\\.mp4$`));
    const poster = await fetch(job.thumbnail_signed_url);
    expect(poster.status).toBe(200);
    const posterBytes = Buffer.from(await poster.arrayBuffer());
    expect(await sharp(posterBytes).metadata()).toMatchObject({ format: 'jpeg', width: 720, height: 1280 });
    expect(await readDigitalSourceType(posterBytes)).toBe('compositeSynthetic');

    const history = await generationsRepo.listGenerations(user.sub, { type: 'video', limit: 10 });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ generation_type: 'video', status: 'complete', credits_used: 1, result_key: job.video_url, thumbnail_key: job.thumbnail_url });
    await expectLedger(user, 0);
  });

  it('makes every output at the ordered size and charges 1 credit each', async () => {
    const user = await createUser(twin);
    const started = await generateVideo(twin.apiUrl, user, photo, { prompt: 'a slow turntable spin', duration: 5, aspect_ratio: '16:9', output_count: 3 });
    expect(started.body.newCredits).toBe(SIGNUP_CREDITS - 3);
    expect(await pollUntilDone(twin.apiUrl, user, started.body)).toMatchObject({ status: 'complete' });
    const urls = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    expect(urls.body.signedUrls).toHaveLength(3);
    const checksums = new Set<string>();
    for (const url of urls.body.signedUrls) {
      const video = await probeUrl(url);
      expect(video).toMatchObject({ width: 1280, height: 720, frames: 5 * 24 });
      checksums.add(createHash('sha256').update(video.bytes).digest('hex'));
    }
    expect(checksums.size, 'three outputs are three different videos').toBe(3);
    // Each says how it differs (test/unit/local-engine-video-framing.test.ts measures that they do), stored on the job.
    const descriptions = [
      'Output 1: steady camera.',
      'Output 2: turns the other way; the camera pans from left to right and back.',
      'Output 3: twice as fast; the camera moves in and back out.',
    ];
    expect(urls.body).toMatchObject({ descriptions, notRendered: [] });
    const [job] = await jobsOf(user);
    expect(job).toMatchObject({ output_descriptions: descriptions, not_rendered: [] });
    expect(job.outputs.map((output: { index: number }) => output.index)).toEqual([0, 1, 2]);
    for (const output of job.outputs) expect(output.seam_score).toBeLessThanOrEqual(1);
    expect(await generationsRepo.listGenerations(user.sub, { type: 'video', limit: 10 })).toHaveLength(3);
    await expectLedger(user, 0);
  });

  it('runs concurrent jobs of several users to completion', async () => {
    const users = await Promise.all([createUser(twin), createUser(twin), createUser(twin)]);
    const orders = [
      { prompt: 'Catwalk', duration: 5, aspect_ratio: '1:1' },
      { prompt: '360 Spin', duration: 5, aspect_ratio: '9:16' },
      { prompt: 'gentle sway', duration: 5, aspect_ratio: '16:9' },
    ];
    const started = await Promise.all(users.map((user, index) => generateVideo(twin.apiUrl, user, photo, orders[index])));
    for (const answer of started) expect(answer.status).toBe(200);
    const results = await Promise.all(users.map((user, index) => pollUntilDone(twin.apiUrl, user, started[index]!.body, 240_000)));
    expect(results.map((result) => result.status)).toEqual(['complete', 'complete', 'complete']);
    for (const user of users) {
      const [job] = await jobsOf(user);
      expect(job.seam_score).toBeLessThanOrEqual(1);
      await expectLedger(user, 0);
    }
  }, 300_000);
});

describe('cancel', () => {
  it('fails the job with "Cancelled by user", stops the execution and refunds once', async () => {
    const user = await createUser(twin);
    const started = await generateVideo(twin.apiUrl, user, photo, { duration: 16, aspect_ratio: '16:9' });
    expect(started.status).toBe(200);
    const cancelled = await api(twin.apiUrl, 'POST', `/jobs/${started.body.jobId}/cancel`, { user });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'failed', error_message: CANCELLED_BY_USER, credits_refunded: 1 });
    expect(await executionStatus(started.body.operationName)).toBe('ABORTED');

    const again = await api(twin.apiUrl, 'POST', `/jobs/${started.body.jobId}/cancel`, { user });
    expect(again.status).toBe(409);
    expect(await pollUntilDone(twin.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: CANCELLED_BY_USER } });
    // Whatever task was running when it was stopped finishes without changing the outcome.
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const [job] = await jobsOf(user);
    expect(job).toMatchObject({ status: 'failed', error_message: CANCELLED_BY_USER, video_url: null });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    await expectLedger(user, 1);
    const history = await generationsRepo.listGenerations(user.sub, { type: 'video', limit: 10 });
    expect(history.map((row) => row.status)).toEqual(['failed']);
  });

  it('settles a job whose execution was stopped from outside as soon as it ends, with nobody polling: failed, refunded once', async () => {
    const user = await createUser(twin);
    const started = await generateVideo(twin.apiUrl, user, photo, { duration: 16, aspect_ratio: '9:16' });
    await sfn.send(new StopExecutionCommand({ executionArn: started.body.operationName, error: 'OperatorStop', cause: 'stopped by an operator' }));
    // No poll-operation and no job list: the status change alone settles the job (EventBridge rule in the cloud).
    const deadline = Date.now() + 30_000;
    let job = await jobsRepo.getJob(user.sub, started.body.jobId);
    while (job?.status === 'generating' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await jobsRepo.getJob(user.sub, started.body.jobId);
    }
    expect(job).toMatchObject({ status: 'failed', error_message: VIDEO_FAILURE_MESSAGES.internal });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await pollUntilDone(twin.apiUrl, user, started.body)).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.internal } });
    await expectLedger(user, 1);
  });

  it('refuses to cancel someone else’s job', async () => {
    const [owner, stranger] = await Promise.all([createUser(twin), createUser(twin)]);
    const started = await generateVideo(twin.apiUrl, owner, photo, { duration: 5, aspect_ratio: '1:1' });
    const attempt = await api(twin.apiUrl, 'POST', `/jobs/${started.body.jobId}/cancel`, { user: stranger });
    expect(attempt.status).toBe(404);
    const peek = await api(twin.apiUrl, 'POST', '/poll-operation', { user: stranger, body: started.body });
    expect(peek.status).toBe(404);
    expect(await pollUntilDone(twin.apiUrl, owner, started.body)).toMatchObject({ status: 'complete' });
  });
});

describe('generate-video requests', () => {
  const post = (user: TestUser, body: unknown, key: string | undefined = randomUUID()) =>
    api(twin.apiUrl, 'POST', '/generate-video', { user, body, headers: key ? { 'idempotency-key': key } : {} });

  it('checks the image, the prompt and the settings with the specification’s messages, charging nothing', async () => {
    const user = await createUser(twin);
    const image = photo.toString('base64');
    expect((await post(user, { imageBase64: image, prompt: '  ' })).body).toEqual({ error: 'Please describe the motion you want', code: 'VALIDATION_ERROR' });
    expect((await post(user, { prompt: 'Pivot' })).body).toEqual({ error: 'Please upload an image first', code: 'VALIDATION_ERROR' });
    expect((await post(user, { imageBase64: image, prompt: 'Pivot', duration: 7 })).status).toBe(400);
    expect((await post(user, { imageBase64: image, prompt: 'Pivot', aspect_ratio: '4:3' })).status).toBe(400);
    expect((await post(user, { imageBase64: image, prompt: 'Pivot', output_count: 2 })).status).toBe(400);
    expect((await post(user, { imageBase64: image, prompt: 'Pivot' }, '')).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const notAnImage = await post(user, { imageBase64: Buffer.from('just some text, not a picture').toString('base64'), prompt: 'Pivot' });
    expect(notAnImage.body).toEqual({ error: 'Please upload a JPEG, PNG, or WebP image', code: 'INVALID_FILE_TYPE' });
    const truncated = await post(user, { imageBase64: photo.subarray(0, photo.length / 2).toString('base64'), prompt: 'Pivot' });
    expect(truncated.body.code).toBe('INVALID_IMAGE');
    const tooLarge = Buffer.concat([photo, Buffer.alloc(INLINE_IMAGE_MAX_BYTES + 1 - photo.length)]);
    const large = await post(user, { imageBase64: tooLarge.toString('base64'), prompt: 'Pivot' });
    expect(large).toMatchObject({ status: 413, body: { code: 'INLINE_IMAGE_TOO_LARGE' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await jobsOf(user)).toEqual([]);
  });

  it('takes an uploaded file (imageKey) of the caller’s own instead of base64, and refuses anyone else’s', async () => {
    const [user, stranger] = await Promise.all([createUser(twin), createUser(twin)]);
    const upload = await api(twin.apiUrl, 'POST', '/generation-uploads/upload-url', {
      user,
      body: { fileName: 'tee.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
    });
    expect(upload.status).toBe(200);
    expect((await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo })).status).toBe(200);
    const imageKey = upload.body.imageKey;

    expect((await post(stranger, { imageKey, prompt: 'Pivot' })).status).toBe(403);
    expect((await post(user, { imageKey, imageBase64: photo.toString('base64'), prompt: 'Pivot' })).status).toBe(400);
    const started = await post(user, { imageKey, prompt: 'Catwalk', duration: 5, aspect_ratio: '1:1' });
    expect(started.status).toBe(200);
    expect(await pollUntilDone(twin.apiUrl, user, started.body)).toMatchObject({ status: 'complete' });
    expect(await balanceOf(stranger)).toBe(SIGNUP_CREDITS);
    await expectLedger(user, 0);
  });

  it('animates the caller’s own library item or finished photo (no re-upload), and finds no one else’s', async () => {
    const [user, stranger] = await Promise.all([createUser(twin), createUser(twin)]);
    const item = await addClothingItem(twin.apiUrl, user, photo);
    const photoId = await onModelPhoto(twin.apiUrl, user, item.id);
    const spentOnPhoto = SIGNUP_CREDITS - (await balanceOf(user));

    for (const source of [{ clothingItemId: item.id }, { generationId: photoId }]) {
      const refused = await post(stranger, { ...source, prompt: 'Pivot' });
      expect(refused.status, JSON.stringify(source)).toBe(404);
    }
    expect(await balanceOf(stranger)).toBe(SIGNUP_CREDITS);
    expect((await post(user, { generationId: photoId, clothingItemId: item.id, prompt: 'Pivot' })).status).toBe(400);

    const fromPhoto = await post(user, { generationId: photoId, prompt: 'Pivot', duration: 5, aspect_ratio: '1:1' });
    const fromItem = await post(user, { clothingItemId: item.id, prompt: 'Catwalk', duration: 5, aspect_ratio: '1:1' });
    expect([fromPhoto.status, fromItem.status]).toEqual([200, 200]);
    for (const started of [fromPhoto, fromItem]) {
      expect(await pollUntilDone(twin.apiUrl, user, started.body)).toMatchObject({ status: 'complete' });
      const job = await jobsRepo.getJob(user.sub, started.body.jobId);
      expect(job?.source_key.startsWith(`${user.sub}/videos/${started.body.jobId}/source.`), 'the source is kept beside the job').toBe(true);
    }
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - spentOnPhoto - 2);
    await expectLedger(user, 0);
  });

  it('answers "Insufficient credits" without charging, and charges a retried request once', async () => {
    const user = await createUser(twin);
    const key = randomUUID();
    const first = await generateVideo(twin.apiUrl, user, photo, { duration: 5, aspect_ratio: '1:1', output_count: 3 }, key);
    const retry = await generateVideo(twin.apiUrl, user, photo, { duration: 5, aspect_ratio: '1:1', output_count: 3 }, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 3);

    const tooMany = await generateVideo(twin.apiUrl, user, photo, { output_count: 5 });
    expect(tooMany.status).toBe(402);
    expect(tooMany.body.error).toContain('Insufficient credits');
    expect(tooMany.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await pollUntilDone(twin.apiUrl, user, first.body)).toMatchObject({ status: 'complete' });
    expect(await jobsOf(user)).toHaveLength(1);
    await expectLedger(user, 0);
  });

  it('says before any charge what the preview engine makes of a custom prompt, refuses one it renders none of, and lists what it left out under the result', async () => {
    const user = await createUser(twin);
    const prompt = 'the model twirls around and waves at the camera';
    const reading = await api(twin.apiUrl, 'GET', `/video-motion?prompt=${encodeURIComponent(prompt)}`, { user });
    expect(reading.status).toBe(200);
    expect(reading.body).toMatchObject({ engine: 'preview-engine', preset: '360 Spin', followed: ['the model twirls around'], notRendered: ['waves at the camera'] });
    expect(reading.body.outputs).toHaveLength(5);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);

    const nothing = await api(twin.apiUrl, 'GET', `/video-motion?prompt=${encodeURIComponent('something beautiful')}`, { user });
    expect(nothing.body).toMatchObject({ preset: null, followed: [], notRendered: ['something beautiful'] });
    const refused = await post(user, { imageBase64: photo.toString('base64'), prompt: 'something beautiful', duration: 5 });
    expect(refused).toMatchObject({ status: 400, body: { code: 'MOTION_NOT_FOLLOWED', error: expect.stringContaining('renders none of this motion prompt') } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await jobsOf(user)).toEqual([]);

    const started = await post(user, { imageBase64: photo.toString('base64'), prompt, duration: 5, aspect_ratio: '1:1' });
    expect(started.status).toBe(200);
    expect(await pollUntilDone(twin.apiUrl, user, started.body)).toMatchObject({ status: 'complete' });
    const urls = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    expect(urls.body).toMatchObject({ notRendered: ['waves at the camera'], descriptions: ['Output 1: steady camera.'] });
    const [job] = await jobsOf(user);
    expect(job).toMatchObject({ prompt, not_rendered: ['waves at the camera'], output_descriptions: ['Output 1: steady camera.'] });
    await expectLedger(user, 0);
  });

  it('lists the newest 10 jobs, newest first, and answers get-video-url only for a finished video', async () => {
    const user = await createUser(twin);
    const started = await generateVideo(twin.apiUrl, user, photo, { duration: 5, aspect_ratio: '1:1' });
    const early = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    expect([200, 409]).toContain(early.status);
    const missing = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: 'no-such-job' } });
    expect(missing.status).toBe(404);
    await pollUntilDone(twin.apiUrl, user, started.body);
    const jobs = await jobsOf(user);
    expect(jobs.map((job) => job.id)).toEqual([started.body.jobId]);
  });
});
