// Batch generation on the local twin: 10 entries × 6 camera angles = 60 photos at 1k made by the local engine.
//  - wall time from POST /generate-batch to the summary, and photos per minute, at the twin's Map concurrency (4) and
//    at 1 and 2 for comparison;
//  - the same 60 photos made one request at a time (POST /generate-ai-image, each waited for), and the speed-up;
//  - the cloud's orchestration cost per 1,000 photos: the state transitions one photo takes in the synthesized batch
//    state machine (and the batch's fixed ones, spread over its photos) at the Standard price of $0.025 per 1,000.
// On the twin every photo runs in one Node process whose libvips already spreads each picture over all cores, so a
// wider Map cannot beat one-at-a-time by much on 2 cores; in the cloud each Map iteration is its own Lambda.
// Run: npx tsx bench/batch.ts   (add --no-synth to read the ASL file instead of synthesizing the stack)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_CAMERA_ANGLES } from '../lambdas/contracts/catalog.js';
import { MAP_CONCURRENCY_ENV, WORKFLOWS } from '../lambdas/workflows.js';
import { readWorkflowText } from '../lib/workflows/index.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';
import { api } from '../test/support/api.js';
import { createUser, type TestUser } from '../test/support/users.js';

const ENTRIES = 10;
const PRICE_PER_TRANSITION = 0.025 / 1000;
const ZOOM_OF_ANGLE: Record<string, string> = { Product: 'close-up', Front: 'auto', Back: 'auto', 'Full Body': 'full-body', 'Mid-shot': 'mid-shot', Side: 'auto' };

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-batch-'));
// Before the handlers load: their info lines (one per photo) would bury the figures.
process.env.LOG_LEVEL ??= 'warn';
const { startTwin } = await import('../lib/local/twin.js');
const twin = await startTwin({ dataDir });
const apiUrl = twin.apiUrl;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newUser(credits: number): Promise<{ user: TestUser; items: string[] }> {
  const user = await createUser(twin.info);
  await api(apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': randomUUID() } });
  const photo = await tshirtPhoto(600, 700);
  const items: string[] = [];
  for (let index = 0; index < ENTRIES; index++) {
    const upload = await api(apiUrl, 'POST', '/clothing-items/upload-url', { user, body: { fileName: 'tee.jpg', contentType: 'image/jpeg', sizeBytes: photo.length } });
    await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo });
    items.push((await api(apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.body.imageKey, name: `Item ${index + 1}` } })).body.id);
  }
  return { user, items };
}

async function runBatch(concurrency: number): Promise<{ seconds: number; made: number; failed: number }> {
  const { user, items } = await newUser(100);
  process.env[MAP_CONCURRENCY_ENV.batch] = String(concurrency);
  const started = performance.now();
  const answer = await api(apiUrl, 'POST', '/generate-batch', {
    user,
    headers: { 'idempotency-key': randomUUID() },
    body: { batchItems: items.map((clothingItemId) => ({ clothingItemId, cameraAngles: [...BATCH_CAMERA_ANGLES], backdrop: 'white' })), imageSize: '1k' },
  });
  if (answer.status !== 200) throw new Error(`generate-batch answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  for (;;) {
    const { body } = await api(apiUrl, 'GET', `/batches/${answer.body.batchId}`, { user });
    if (body.summary) return { seconds: (performance.now() - started) / 1000, made: body.summary.successfulGenerations, failed: body.summary.failedGenerations };
    await sleep(100);
  }
}

async function runOneAtATime(): Promise<{ seconds: number; made: number }> {
  const { user, items } = await newUser(100);
  const started = performance.now();
  let made = 0;
  for (const clothingItemId of items) {
    for (const angle of BATCH_CAMERA_ANGLES) {
      const answer = await api(apiUrl, 'POST', '/generate-ai-image', {
        user,
        headers: { 'idempotency-key': randomUUID() },
        body: { clothingItemId, prompt: 'young female model', cameraZoom: ZOOM_OF_ANGLE[angle], imageSize: '1k' },
      });
      for (;;) {
        const { body } = await api(apiUrl, 'GET', `/generations/${answer.body.generationId}`, { user });
        if (body.status !== 'processing') {
          if (body.status === 'complete') made++;
          break;
        }
        await sleep(100);
      }
    }
  }
  return { seconds: (performance.now() - started) / 1000, made };
}

/** The batch definition as deployed: the synthesized template's DefinitionString (or the ASL file with --no-synth). */
async function deployedDefinition(): Promise<{ source: string; definition: any }> {
  if (process.argv.includes('--no-synth')) return { source: 'lib/workflows/batch.asl.json', definition: JSON.parse(readWorkflowText(WORKFLOWS.batch)) };
  const { synthModelLoop } = await import('../test/infra/synth.js');
  const synth = synthModelLoop({ nag: false });
  try {
    const text = readWorkflowText(WORKFLOWS.batch);
    const machine = Object.values(synth.json.Resources).find((resource) => resource.Type === 'AWS::StepFunctions::StateMachine' && resource.Properties?.DefinitionString === text);
    if (!machine) throw new Error('no synthesized state machine carries the batch definition');
    return { source: 'the synthesized template', definition: JSON.parse(machine.Properties!.DefinitionString as string) };
  } finally {
    synth.dispose();
  }
}

/** The states entered from StartAt to an end, following Next (a task's success path). */
function pathLength(machine: { StartAt: string; States: Record<string, any> }, from = machine.StartAt): string[] {
  const visited: string[] = [];
  let name: string | undefined = from;
  while (name) {
    visited.push(name);
    const state: any = machine.States[name];
    name = state.End || state.Type === 'Succeed' || state.Type === 'Fail' ? undefined : state.Next;
  }
  return visited;
}

try {
  const loadAtStart = loadavg()[0]!;
  const photos = ENTRIES * BATCH_CAMERA_ANGLES.length;
  const results: { label: string; seconds: number; made: number; failed?: number }[] = [];
  const batch4 = await runBatch(4);
  results.push({ label: 'batch, Map concurrency 4 (twin)', ...batch4 });
  results.push({ label: 'batch, Map concurrency 2', ...(await runBatch(2)) });
  results.push({ label: 'batch, Map concurrency 1', ...(await runBatch(1)) });
  const single = await runOneAtATime();
  results.push({ label: 'one request at a time (generate-ai-image)', ...single });

  console.log(`batch generation — ${photos} photos (${ENTRIES} entries × ${BATCH_CAMERA_ANGLES.length} angles) at 1k, local engine, ${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
  console.log('run                                         wall s   photos/min   made/failed   speed-up vs one at a time');
  for (const row of results) {
    console.log(
      `${row.label.padEnd(43)} ${row.seconds.toFixed(1).padStart(6)}   ${((60 * row.made) / row.seconds).toFixed(1).padStart(10)}   ${`${row.made}/${row.failed ?? photos - row.made}`.padStart(11)}   ${(single.seconds / row.seconds).toFixed(2).padStart(6)}×`,
    );
  }

  const { source, definition } = await deployedDefinition();
  const map = definition.States.Photos;
  const perPhoto = pathLength(map.ItemProcessor).length;
  const perFailedPhoto = pathLength(map.ItemProcessor, 'FailPhoto').length + 1;
  const fixed = pathLength(definition).length;
  const perPhotoInBatch = perPhoto + fixed / photos;
  const single2 = pathLength(JSON.parse(readWorkflowText(WORKFLOWS.generation))).length;
  console.log(`\norchestration in the cloud (Step Functions Standard, $0.025 per 1,000 state transitions), from ${source}:`);
  console.log(`  a photo: ${perPhoto} transition (${pathLength(map.ItemProcessor).join(' → ')}); a failed photo: ${perFailedPhoto}; per batch: ${fixed} (${pathLength(definition).join(' → ')})`);
  console.log(`  batches of ${photos}: ${perPhotoInBatch.toFixed(3)} transitions per photo → $${(1000 * perPhotoInBatch * PRICE_PER_TRANSITION).toFixed(4)} per 1,000 photos`);
  console.log(`  the same photos one generation workflow each: ${single2} transitions per photo → $${(1000 * single2 * PRICE_PER_TRANSITION).toFixed(4)} per 1,000 photos`);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
