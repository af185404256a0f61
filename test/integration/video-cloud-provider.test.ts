// The video workflow with the cloud video adapter (Luma Ray2 on Bedrock) against a fake Bedrock runtime that speaks
// the documented StartAsyncInvoke / GetAsyncInvoke shapes and writes its clips into the twin's S3, as Bedrock writes
// into the results bucket. This file runs its own twin, configured like a cloud stage (PROVIDER_VIDEO=bedrock), so
// the same ASL and handlers meet a provider that refuses, fails, returns a file that isn't a video (the finalize
// task crashes on it), and delivers ordinary footage that does not loop (8 s from 9 s, 16 s from two chained clips).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Http2Server } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS, VIDEO_SIZES } from '../../lambdas/contracts/catalog.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { LOCAL_WAIT_MS_ENV } from '../../lib/local/stepfunctions.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { panClip } from '../fixtures/media-clips.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import type { TwinInfo } from '../support/global-twin.js';
import { createUser, type TestUser } from '../support/users.js';
import { generateVideo, pollUntilDone, probeUrl } from '../support/video.js';

interface Invocation {
  id: string;
  arn: string;
  prompt: string;
  s3Uri: string;
  aspectRatio: keyof typeof VIDEO_SIZES;
  seconds: number;
  resolution: string;
  loop: boolean;
  frame0: Buffer;
  frame1?: Buffer;
  checks: number;
}

/** A Bedrock runtime for Luma Ray2's async invocations: each clip is "in progress" for one check, then settles. */
function fakeBedrock(s3: () => S3Client, clipsDir: string) {
  const invocations: Invocation[] = [];
  const outcome = (invocation: Invocation): 'refused' | 'failed' | 'corrupt' | 'clip' => {
    if (invocation.prompt.includes('refuse me')) return 'refused';
    if (invocation.prompt.includes('second output fails') && invocation.s3Uri.includes('/output-2-')) return 'failed';
    if (invocation.prompt.includes('corrupt file')) return 'corrupt';
    return 'clip';
  };
  async function writeOutput(invocation: Invocation): Promise<void> {
    const [, bucket, prefix] = /^s3:\/\/([^/]+)\/(.+)$/.exec(invocation.s3Uri)!;
    const size = VIDEO_SIZES[invocation.aspectRatio];
    const body =
      outcome(invocation) === 'corrupt'
        ? Buffer.from('this is not an mp4 file')
        : await readFile(await panClip(mkdtempSync(join(clipsDir, 'clip-')), { seconds: invocation.seconds, width: size.width / 2, height: size.height / 2, pixelsPerSecond: 40 }));
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}/${invocation.id}/output.mp4`, Body: body, ContentType: 'video/mp4' }));
  }
  // The Bedrock runtime client speaks HTTP/2 (cleartext towards an http:// endpoint).
  const server: Http2Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        if (req.method === 'POST' && req.url === '/async-invoke') {
          const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const id = randomUUID().replace(/-/g, '').slice(0, 12);
          const input = request.modelInput;
          invocations.push({
            id,
            arn: `arn:aws:bedrock:us-east-1:000000000000:async-invoke/${id}`,
            prompt: input.prompt,
            s3Uri: request.outputDataConfig.s3OutputDataConfig.s3Uri,
            aspectRatio: input.aspect_ratio,
            seconds: Number.parseInt(input.duration, 10),
            resolution: input.resolution,
            loop: input.loop,
            frame0: Buffer.from(input.keyframes.frame0.source.data, 'base64'),
            ...(input.keyframes.frame1 ? { frame1: Buffer.from(input.keyframes.frame1.source.data, 'base64') } : {}),
            checks: 0,
          });
          return reply(200, { invocationArn: invocations.at(-1)!.arn });
        }
        const match = /^\/async-invoke\/(.+)$/.exec(req.url ?? '');
        const invocation = match && invocations.find((candidate) => candidate.arn === decodeURIComponent(match[1]!));
        if (req.method === 'GET' && invocation) {
          invocation.checks++;
          const base = {
            invocationArn: invocation.arn,
            modelArn: 'arn:aws:bedrock:us-east-1::foundation-model/luma.ray-v2:0',
            submitTime: new Date().toISOString(),
            // As Bedrock reports it: the requested prefix with the invocation's own folder.
            outputDataConfig: { s3OutputDataConfig: { s3Uri: `${invocation.s3Uri}/${invocation.id}` } },
          };
          if (invocation.checks === 1) return reply(200, { ...base, status: 'InProgress' });
          const result = outcome(invocation);
          if (result === 'refused') return reply(200, { ...base, status: 'Failed', failureMessage: 'The input image was blocked by our content filters.' });
          if (result === 'failed') return reply(200, { ...base, status: 'Failed', failureMessage: 'Internal error in model 7f3a' });
          if (invocation.checks === 2) await writeOutput(invocation);
          return reply(200, { ...base, status: 'Completed' });
        }
        reply(400, { message: `unexpected ${req.method} ${req.url}` });
      } catch (error) {
        reply(500, { message: String(error) });
      }
    });
  });
  return { server, invocations };
}

let twin: Twin;
let info: TwinInfo;
let bedrock: ReturnType<typeof fakeBedrock>;
let dataDir: string;
let photo: Buffer;
let ledgerRepo: typeof import('../../lambdas/data/credits-repo.js');
let generationsRepo: typeof import('../../lambdas/data/generations-repo.js');
let sfn: SFNClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-cloud-video-'));
  let s3: S3Client | undefined;
  bedrock = fakeBedrock(() => (s3 ??= new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, forcePathStyle: true })), dataDir);
  await new Promise<void>((resolve) => bedrock.server.listen(0, '127.0.0.1', resolve));
  const address = bedrock.server.address() as { port: number };
  // Configured as a cloud stage's video functions are, with only the Bedrock endpoint pointing here.
  Object.assign(process.env, {
    PROVIDER_VIDEO: 'bedrock',
    BEDROCK_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: `http://127.0.0.1:${address.port}`,
    [LOCAL_WAIT_MS_ENV]: '250',
  });
  twin = await startTwin({ dataDir: join(dataDir, 'twin') });
  info = twin.info;
  sfn = new SFNClient({ endpoint: twin.env.AWS_ENDPOINT_URL_SFN, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  ledgerRepo = await import('../../lambdas/data/credits-repo.js');
  generationsRepo = await import('../../lambdas/data/generations-repo.js');
  photo = await tshirtPhoto();
}, 120_000);

afterAll(async () => {
  await twin?.stop();
  await new Promise((resolve) => bedrock?.server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

async function balanceOf(user: TestUser): Promise<number> {
  return (await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits;
}

async function expectRefunds(user: TestUser, refunds: number[]): Promise<void> {
  const entries = await ledgerRepo.listWholeLedger(user.sub);
  expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(await balanceOf(user));
  expect(entries.filter((entry) => entry.transaction_type === 'refund').map((entry) => entry.amount)).toEqual(refunds);
}

const executionStatus = async (arn: string) => (await sfn.send(new DescribeExecutionCommand({ executionArn: arn }))).status;

async function jobOf(user: TestUser, jobId: string) {
  const { body } = await api(info.apiUrl, 'GET', '/jobs', { user });
  return body.items.find((job: { id: string }) => job.id === jobId);
}

describe('provider failures', () => {
  it('a content refusal ends the job failed with the Content Policy message and one refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'please refuse me' });
    expect(started.status).toBe(200);
    const polled = await pollUntilDone(info.apiUrl, user, started.body);
    expect(polled).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.contentPolicy } });
    expect(polled.error!.message).toContain('Content Policy Violation');
    // The job is settled by the workflow's MarkFailed step; the execution itself ends a moment later.
    await expect.poll(() => executionStatus(started.body.operationName), { timeout: 30_000 }).toBe('FAILED');
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    await expectRefunds(user, [1]);
    const history = await generationsRepo.listGenerations(user.sub, { type: 'video', limit: 10 });
    // History shows what was charged and that it came back: net 0.
    expect(history).toMatchObject([{ status: 'failed', credits_used: 1, credits_refunded: 1, error_message: VIDEO_FAILURE_MESSAGES.contentPolicy }]);
  });

  it('a crashing finalize task (the provider delivered a file that is no video) ends failed with a safe message and one refund', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'corrupt file', output_count: 3 });
    expect(started.body.newCredits).toBe(SIGNUP_CREDITS - 3);
    const polled = await pollUntilDone(info.apiUrl, user, started.body);
    expect(polled).toEqual({ done: true, status: 'failed', error: { message: VIDEO_FAILURE_MESSAGES.internal } });
    expect(polled.error!.message).not.toMatch(/ffprobe|ffmpeg|stream|Error:/);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    await expectRefunds(user, [3]);
  });

  it('an output that fails is refunded while the others are delivered', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'second output fails', duration: 5, aspect_ratio: '1:1', output_count: 3 });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toEqual({ done: true, status: 'complete' });
    const job = await jobOf(user, started.body.jobId);
    expect(job.outputs.map((output: { index: number }) => output.index)).toEqual([0, 2]);
    expect(job.credits_refunded).toBe(1);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 2);
    await expectRefunds(user, [1]);
    const urls = await api(info.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    expect(urls.body.signedUrls).toHaveLength(2);
  });
});

describe('normalizing a provider’s footage', () => {
  it('makes 8 s from a 9 s clip that does not loop, repairs the seam, and delivers the exact size', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: 'Catwalk', duration: 8, aspect_ratio: '9:16' });
    expect(await pollUntilDone(info.apiUrl, user, started.body)).toMatchObject({ status: 'complete' });
    const job = await jobOf(user, started.body.jobId);
    expect(job.model).toBe('bedrock:luma.ray-v2:0');
    expect(job.outputs[0]).toMatchObject({ repaired: true, width: 720, height: 1280 });
    expect(job.outputs[0].original_seam_score).toBeGreaterThan(1);
    expect(job.outputs[0].seam_score).toBeLessThanOrEqual(1);
    const urls = await api(info.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    const video = await probeUrl(urls.body.signedUrl);
    expect(video).toMatchObject({ codec: 'h264', width: 720, height: 1280, frames: 8 * 24 });
    const clips = bedrock.invocations.filter((invocation) => invocation.s3Uri.includes(started.body.jobId));
    expect(clips.map((clip) => clip.seconds)).toEqual([9]);
    expect(clips.map((clip) => [clip.resolution, clip.loop])).toEqual([['540p', true]]);
  });

  it('makes 16 s from two 9 s clips, the second keyed by the first one’s last frame', async () => {
    const user = await createUser(info);
    const started = await generateVideo(info.apiUrl, user, photo, { prompt: '360 Spin', duration: 16, aspect_ratio: '16:9' });
    expect(await pollUntilDone(info.apiUrl, user, started.body, 240_000)).toMatchObject({ status: 'complete' });
    const clips = bedrock.invocations.filter((invocation) => invocation.s3Uri.includes(started.body.jobId));
    expect(clips.map((clip) => clip.seconds)).toEqual([9, 9]);
    // Clip 1 starts from the product photo, clip 2 from clip 1's last frame (the fake's 16:9 footage) and ends on the
    // product photo; neither loops onto itself.
    expect(clips[0]!.frame0.equals(photo)).toBe(true);
    expect(clips[0]!.frame1).toBeUndefined();
    expect(clips[1]!.frame1?.equals(photo)).toBe(true);
    expect(clips.map((clip) => clip.loop)).toEqual([false, false]);
    const keyframe = await sharp(clips[1]!.frame0).metadata();
    expect(keyframe.width! / keyframe.height!).toBeCloseTo(16 / 9, 2);
    const job = await jobOf(user, started.body.jobId);
    expect(job.outputs[0].seam_score).toBeLessThanOrEqual(1);
    const urls = await api(info.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: started.body.jobId } });
    const video = await probeUrl(urls.body.signedUrl);
    expect(video).toMatchObject({ width: 1280, height: 720, frames: 16 * 24 });
    expect(video.durationSeconds).toBeCloseTo(16, 1);
  }, 300_000);
});
