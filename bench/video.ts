// Video jobs end to end on the local twin with the local studio engine: for each duration (5, 8, 16 s) and aspect
// ratio (9:16, 1:1, 16:9), the wall time from the generate-video request to a playable result (the job polled until
// complete, its signed URL fetched and the MP4 probed), the time the workflow itself took (job created → ended),
// and the seam scores (the provider clip's, and the delivered file's). Jobs run one at a time.
// Run: npx tsx bench/video.ts [--repeat N]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_ASPECT_RATIOS, VIDEO_DURATIONS } from '../lambdas/contracts/catalog.js';
import { startTwin } from '../lib/local/twin.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';
import { api } from '../test/support/api.js';
import { createUser } from '../test/support/users.js';
import { generateVideo, pollUntilDone, probeUrl } from '../test/support/video.js';

const repeatIndex = process.argv.indexOf('--repeat');
const repeat = repeatIndex > 0 ? Math.max(1, Number(process.argv[repeatIndex + 1]) || 1) : 1;

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-video-'));
const twin = await startTwin({ dataDir });
try {
  const info = {
    webUrl: twin.webUrl,
    apiUrl: twin.apiUrl,
    websocketUrl: twin.websocketUrl,
    cognitoEndpoint: twin.config.cognitoEndpoint!,
    userPoolId: twin.config.userPoolId,
    userPoolClientId: twin.config.userPoolClientId,
    region: twin.config.region,
    mailboxFile: twin.mailboxFile,
    env: twin.env,
  };
  const user = await createUser(info);
  const runs = VIDEO_DURATIONS.length * VIDEO_ASPECT_RATIOS.length * repeat;
  await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: runs }, headers: { 'idempotency-key': randomUUID() } });
  const photo = await tshirtPhoto(600, 700);

  console.log(`Video jobs on the local twin (local engine, one at a time, best of ${repeat}); ${new Date().toISOString()}`);
  console.log('| duration | aspect | size | request → playable (s) | workflow (s) | seam score: clip → delivered | repaired |');
  console.log('|---:|:---:|:---:|---:|---:|:---:|:---:|');
  for (const duration of VIDEO_DURATIONS) {
    for (const aspect of VIDEO_ASPECT_RATIOS) {
      let best: { wall: number; workflow: number; job: any; size: string } | undefined;
      for (let run = 0; run < repeat; run++) {
        const started = performance.now();
        const answer = await generateVideo(twin.apiUrl, user, photo, { prompt: 'Pivot', duration, aspect_ratio: aspect });
        if (answer.status !== 200) throw new Error(`generate-video answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        const done = await pollUntilDone(twin.apiUrl, user, answer.body, 600_000);
        if (done.status !== 'complete') throw new Error(`job ${answer.body.jobId} ended ${done.status}: ${done.error?.message}`);
        const urls = await api(twin.apiUrl, 'POST', '/get-video-url', { user, body: { jobId: answer.body.jobId } });
        const video = await probeUrl(urls.body.signedUrl);
        const wall = (performance.now() - started) / 1000;
        const jobs = await api(twin.apiUrl, 'GET', '/jobs', { user });
        const job = jobs.body.items.find((item: { id: string }) => item.id === answer.body.jobId);
        const workflow = (Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000;
        if (!best || wall < best.wall) best = { wall, workflow, job, size: `${video.width}×${video.height}, ${video.durationSeconds.toFixed(2)} s` };
      }
      const output = best!.job.outputs[0];
      console.log(
        `| ${duration} s | ${aspect} | ${best!.size} | ${best!.wall.toFixed(1)} | ${best!.workflow.toFixed(1)} | ` +
          `${output.original_seam_score.toFixed(3)} → ${output.seam_score.toFixed(3)} | ${output.repaired ? 'yes' : 'no'} |`,
      );
    }
  }
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
