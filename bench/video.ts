// Video jobs end to end on the local twin with the local studio engine, beside the limit underneath them: one bare
// render of the same clip (same photo, same motion preset, duration and size, the engine's own renderer writing a
// file, nothing else).
//
// For an 8 s 9:16 video: request → playable is the wall time from the generate-video request to a playable result
// (the job's end learnt from the WebSocket as the web app does, its signed URL fetched and the MP4 probed). Renders
// and jobs alternate (render, job, render, job, …) so both see the same machine; the first job is an uncounted
// warm-up (the twin loading each handler once). Medians of --repeat runs (default 3).
// Ends with `ratio video.8s-9x16 X` (request → playable / bare render).
// --all also times one job of every duration and aspect ratio, with its seam scores.
// Run: npx tsx bench/video.ts [--repeat N] [--all]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { VIDEO_ASPECT_RATIOS, VIDEO_DURATIONS, VIDEO_SIZES } from '../lambdas/contracts/catalog.js';
import { presetForPrompt } from '../lambdas/providers/local-engine/motion.js';
import { renderLoopingClip } from '../lambdas/providers/local-engine/video-render.js';
import { startTwin } from '../lib/local/twin.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';
import { api } from '../test/support/api.js';
import { createUser, type TestUser } from '../test/support/users.js';
import { generateVideo, probeUrl } from '../test/support/video.js';

const repeatIndex = process.argv.indexOf('--repeat');
const repeat = repeatIndex > 0 ? Math.max(1, Number(process.argv[repeatIndex + 1]) || 3) : 3;
const all = process.argv.includes('--all');
const PROMPT = 'Pivot';
type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-video-'));
const renderDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-render-'));
const twin = await startTwin({ dataDir });
try {
  const user = await createUser(twin.info);
  const jobsToRun = 1 + repeat + (all ? VIDEO_DURATIONS.length * VIDEO_ASPECT_RATIOS.length : 0);
  await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: jobsToRun }, headers: { 'idempotency-key': randomUUID() } });
  const photo = await tshirtPhoto(600, 700);

  /** Seconds from the request to a probed, playable MP4, and the finished job. */
  async function requestToPlayable(duration: number, aspect: VideoAspectRatio) {
    const started = performance.now();
    const answer = await generateVideo(twin.apiUrl, user, photo, { prompt: PROMPT, duration, aspect_ratio: aspect });
    if (answer.status !== 200) throw new Error(`generate-video answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    const done = await untilDone(answer.body);
    if (done.status !== 'complete') throw new Error(`job ${answer.body.jobId} ended ${done.status}: ${done.error?.message}`);
    const urls = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: answer.body.jobId } });
    const video = await probeUrl(urls.body.signedUrl);
    const seconds = (performance.now() - started) / 1000;
    const job = await jobById(user, answer.body.jobId);
    return { seconds, video, job };
  }

  // As the web app learns of a finished job: a "jobs changed" message on its WebSocket, then one poll to read it (and
  // a slow poll in case a message is missed), so the bench neither waits on a poll interval nor loads the machine
  // with polls while it renders.
  const socket = new WebSocket(`${twin.websocketUrl}?token=${encodeURIComponent(user.idToken)}`);
  const changed = new Set<() => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; resource?: string };
    if (message.type === 'changed' && message.resource === 'jobs') for (const wake of changed) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  async function untilDone(job: { jobId: string; operationName: string }) {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const { status, body } = await api(twin.apiUrl, 'POST', '/poll-operation', { user, body: job });
      if (status !== 200) throw new Error(`poll-operation answered ${status}: ${JSON.stringify(body)}`);
      if (body.done) return body as { status: string; error?: { message: string } };
      if (Date.now() > deadline) throw new Error(`job ${job.jobId} not done after 10 minutes`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          changed.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 2000);
        changed.add(wake);
      });
    }
  }

  async function bareRender(duration: number, aspect: VideoAspectRatio): Promise<number> {
    const started = performance.now();
    await renderLoopingClip(
      { image: photo, preset: presetForPrompt(PROMPT), durationSeconds: duration, size: VIDEO_SIZES[aspect] },
      join(renderDir, `${randomUUID()}.mp4`),
    );
    return (performance.now() - started) / 1000;
  }

  const loadAtStart = loadavg()[0]!;
  await requestToPlayable(8, '9:16'); // warm-up
  const renders: number[] = [];
  const jobs: number[] = [];
  const workflows: number[] = [];
  for (let run = 0; run < repeat; run++) {
    renders.push(await bareRender(8, '9:16'));
    const { seconds, job } = await requestToPlayable(8, '9:16');
    jobs.push(seconds);
    workflows.push((Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000);
  }
  console.log(`Video on the local twin (local engine), 8 s 9:16, median of ${repeat}; load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
  console.log('| measure | median (s) | runs (s) |');
  console.log('|---|---:|---|');
  const row = (name: string, values: number[]) => console.log(`| ${name} | ${median(values).toFixed(2)} | ${values.map((value) => value.toFixed(2)).join(' ')} |`);
  row('bare render (renderLoopingClip to a file)', renders);
  row('request → playable', jobs);
  row('workflow (job created → ended)', workflows);

  if (all) {
    console.log('\n| duration | aspect | size | request → playable (s) | workflow (s) | seam score: clip → delivered | repaired |');
    console.log('|---:|:---:|:---:|---:|---:|:---:|:---:|');
    for (const duration of VIDEO_DURATIONS) {
      for (const aspect of VIDEO_ASPECT_RATIOS) {
        const { seconds, video, job } = await requestToPlayable(duration, aspect);
        const output = job.outputs[0];
        const workflow = (Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000;
        console.log(
          `| ${duration} s | ${aspect} | ${video.width}×${video.height}, ${video.durationSeconds.toFixed(2)} s | ${seconds.toFixed(1)} | ` +
            `${workflow.toFixed(1)} | ${output.original_seam_score.toFixed(3)} → ${output.seam_score.toFixed(3)} | ${output.repaired ? 'yes' : 'no'} |`,
        );
      }
    }
  }
  socket.close();
  console.log(`\nratio video.8s-9x16 ${(median(jobs) / median(renders)).toFixed(2)}`);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(renderDir, { recursive: true, force: true });
}

async function jobById(user: TestUser, jobId: string): Promise<any> {
  const jobs = await api(twin.apiUrl, 'GET', '/jobs', { user });
  const job = jobs.body.items.find((item: { id: string }) => item.id === jobId);
  if (!job) throw new Error(`job ${jobId} is not in /jobs`);
  return job;
}
