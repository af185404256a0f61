// One function's CPU work never stalls another's request on the twin (issue 51): each function runs in workers of its
// own (lib/local/lambda-runtime.ts), as each runs in its own sandbox in the cloud. The bench times 50 light requests
// (cancelling a video job, listing generations, reading the profile: milliseconds of work each, one after the other)
// on an idle twin, then again while 20 4K upscales (ESRGAN on onnxruntime, then Lanczos: the heaviest CPU work the
// studio does) run in the generation workflow, and prints the p99 of each and their ratio.
// Target: `ratio isolation.light-p99-under-upscales` ≤ 2.
// Run: npx tsx bench/isolation.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTwin } from '../lib/local/twin.js';
import { createUser, type LocalUser } from '../lib/local/users.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';

const UPSCALES = 20;
const LIGHT_REQUESTS = 50;
const USERS = 5;

const percentile = (samples: number[], p: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-isolation-'));
const loadAtStart = loadavg()[0]!;
const twin = await startTwin({ dataDir, stripe: false, throttle: false, progress: (line) => console.log(line) });

async function call(user: LocalUser, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${twin.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A 1K picture of the user's, uploaded as the web app uploads one: what each upscale enlarges to 4K. */
async function uploadedPicture(user: LocalUser, picture: Buffer): Promise<string> {
  const { body: upload } = await call(user, 'POST', '/generation-uploads/upload-url', { fileName: 'tee.jpg', contentType: 'image/jpeg', sizeBytes: picture.length });
  const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: picture });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  return upload.imageKey as string;
}

/** The light requests, one after the other, each timed; any answer but the expected one stops the bench. */
async function lightRequests(users: LocalUser[]): Promise<number[]> {
  const requests = [
    (user: LocalUser) => call(user, 'POST', `/jobs/${randomUUID()}/cancel`).then((answer) => answer.status === 404),
    (user: LocalUser) => call(user, 'GET', '/generations?limit=20').then((answer) => answer.status === 200),
    (user: LocalUser) => call(user, 'GET', '/profile').then((answer) => answer.status === 200),
  ];
  const times: number[] = [];
  for (let index = 0; index < LIGHT_REQUESTS; index++) {
    const started = performance.now();
    if (!(await requests[index % requests.length]!(users[index % users.length]!))) throw new Error(`light request ${index} was not answered as expected`);
    times.push(performance.now() - started);
  }
  return times;
}

try {
  const users: LocalUser[] = [];
  for (let index = 0; index < USERS; index++) users.push(await createUser(twin.info, `bench-isolation-${index}-${Date.now()}@example.com`));
  for (const user of users) {
    const bought = await call(user, 'POST', '/credits/purchase', { credits: 2 * UPSCALES });
    if (bought.status !== 200) throw new Error(`purchase answered ${bought.status}`);
  }
  const picture = await tshirtPhoto(1024, 1024);
  const sources = await Promise.all(users.map((user) => uploadedPicture(user, picture)));

  // Warm: every light function has a worker, as a sandbox is warm after its first request.
  await lightRequests(users);
  const idle = await lightRequests(users);

  const started = await Promise.all(
    Array.from({ length: UPSCALES }, (_, index) => call(users[index % USERS]!, 'POST', '/upscale-ai-image', { imageUrl: sources[index % USERS], targetResolution: '4k' })),
  );
  const generations = started.map((answer, index) => {
    if (answer.status !== 200) throw new Error(`upscale ${index} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return { user: users[index % USERS]!, id: answer.body.generationId as string };
  });
  const heavyStarted = performance.now();
  const loaded = await lightRequests(users);
  const lightMs = performance.now() - heavyStarted;
  const stillRunning = (await Promise.all(generations.map(({ user, id }) => call(user, 'GET', `/generations/${id}`)))).filter((answer) => answer.body.status === 'processing').length;
  // The upscales finish before the twin stops (their results are not part of the figures).
  for (const { user, id } of generations) {
    for (;;) {
      const { body } = await call(user, 'GET', `/generations/${id}`);
      if (body.status !== 'processing') break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 1_000));
    }
  }
  const upscalesMs = performance.now() - heavyStarted;

  const idleP99 = percentile(idle, 99);
  const loadedP99 = percentile(loaded, 99);
  console.log(`light requests (cancel, list, profile), ${LIGHT_REQUESTS} one after the other:`);
  console.log(`  idle twin                  p50 ${percentile(idle, 50).toFixed(0)} ms  p99 ${idleP99.toFixed(0)} ms`);
  console.log(`  beside ${UPSCALES} 4K upscales     p50 ${percentile(loaded, 50).toFixed(0)} ms  p99 ${loadedP99.toFixed(0)} ms`);
  console.log(`  (the light requests took ${(lightMs / 1000).toFixed(1)} s; ${stillRunning} of ${UPSCALES} upscales were still running at their end; all ${UPSCALES} ended after ${(upscalesMs / 1000).toFixed(0)} s)`);
  console.log(`${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
  console.log(`p99-ms isolation.light-idle ${idleP99.toFixed(0)}`);
  console.log(`p99-ms isolation.light-under-upscales ${loadedP99.toFixed(0)}`);
  console.log(`ratio isolation.light-p99-under-upscales ${(loadedP99 / idleP99).toFixed(2)}`);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
