// `npm run providers:check`: runs every configured AI port once on the bundled sample product photos (a T-shirt on a
// hanger, a flat lay, a necklace: scripts/providers-check/samples.ts), prints a table (operation, provider and model,
// latency, list cost, seam score for videos) and saves every output to a folder to look at.
//
// With real credentials it calls the providers the environment selects, exactly as the deployed functions do: the same
// variables (PROVIDER_IMAGE, PROVIDER_EDIT, PROVIDER_UPSCALE, PROVIDER_VIDEO, GOOGLE_API_KEY_SECRET or GOOGLE_API_KEY,
// BEDROCK_REGION, FASHN_*; docs/deploy.md prints them from a deployed stack) and the AWS credentials of the shell. A
// Luma video needs a bucket in the Bedrock region to write to: PROVIDERS_CHECK_BUCKET. Without any cloud provider
// selected (or with --fake) it runs against the contract fakes on loopback (test/support/fake-google.ts): no
// network, no cost, so CI runs it too.
//
//   npm run providers:check                      the environment's providers (the fakes when none is selected)
//   npm run providers:check -- --fake            the contract fakes whatever the environment says
//   npm run providers:check -- --out <folder>    where outputs go (default providers-check/<time>)
//   npm run providers:check -- --no-video        skip the video (a real Veo clip costs about $1.20)
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { IMAGE_SIZES, VIDEO_SIZES, type PricingTierId } from '../lambdas/contracts/catalog.js';
import { deliverableVideo } from '../lambdas/domain/video/finalize.js';
import { operationCosts } from '../lambdas/providers/list-prices.js';
import type { ImageOutput, S3Location, VideoStatus } from '../lambdas/providers/ports.js';
import { getProviders, readProviderConfig } from '../lambdas/providers/registry.js';
import { FAKE_GOOGLE_API_KEY, startFakeGoogle, type FakeGoogle } from '../test/support/fake-google.js';
import { sampleProducts } from './providers-check/samples.js';

interface Row {
  operation: string;
  provider: string;
  latencyMs?: number;
  listUsd: number;
  seam?: string;
  file?: string;
  error?: string;
}

const { values: args } = parseArgs({
  options: { fake: { type: 'boolean', default: false }, out: { type: 'string' }, 'no-video': { type: 'boolean', default: false } },
});

function cloudSelected(env: NodeJS.ProcessEnv): boolean {
  return ['PROVIDER_IMAGE', 'PROVIDER_EDIT', 'PROVIDER_UPSCALE', 'PROVIDER_VIDEO'].some((name) => (env[name]?.trim() || 'local') !== 'local');
}

const fakeMode = args.fake || !cloudSelected(process.env);
let fake: FakeGoogle | undefined;
if (fakeMode) {
  fake = await startFakeGoogle();
  fake.checksUntilDone = 2;
  Object.assign(process.env, {
    PROVIDER_IMAGE: 'google',
    PROVIDER_EDIT: 'google',
    PROVIDER_UPSCALE: 'local',
    PROVIDER_VIDEO: 'google',
    GOOGLE_API_KEY: FAKE_GOOGLE_API_KEY,
    GOOGLE_API_BASE_URL: fake.baseUrl,
  });
  delete process.env.GOOGLE_API_KEY_SECRET;
}

const config = readProviderConfig(process.env);
const providers = getProviders(process.env);
const costs = new Map(operationCosts({ providers: config, google: config.google }).map((cost) => [cost.tier, cost.usd]));
const listUsd = (tier: PricingTierId) => costs.get(tier) ?? 0;
const outDir = resolve(args.out ?? join('providers-check', new Date().toISOString().replace(/[:.]/g, '-')));
await mkdir(outDir, { recursive: true });
const rows: Row[] = [];
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function timed<T>(row: Omit<Row, 'latencyMs' | 'provider'>, call: () => Promise<T>, describe: (result: T) => Promise<Partial<Row>>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const result = await call();
    const latencyMs = Math.round(performance.now() - started);
    rows.push({ provider: '', ...row, latencyMs, ...(await describe(result)) });
    return result;
  } catch (error) {
    rows.push({ provider: '—', ...row, latencyMs: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

async function saveImage(name: string, output: ImageOutput): Promise<Partial<Row>> {
  const file = join(outDir, `${name}.png`);
  await writeFile(file, output.bytes);
  return { provider: output.model, file: `${name}.png (${output.width}×${output.height})` };
}

const samples = await sampleProducts();
for (const sample of samples) await writeFile(join(outDir, `sample-${sample.name}.jpg`), sample.photo);

// On-model photos: one per sample, 2k 9:16 (the default order); the first with promptEnhance.
const photos: ImageOutput[] = [];
for (const [index, sample] of samples.entries()) {
  const output = await timed(
    { operation: `on-model photo (${sample.name})`, listUsd: listUsd('image-generation') },
    () =>
      providers.onModelImage.generate({
        product: { bytes: sample.photo, mimeType: 'image/jpeg' },
        productType: sample.productType,
        model: { description: 'a woman in her thirties with shoulder-length brown hair, natural make-up', seed: 20261125 },
        cameraZoom: sample.productType === 'jewelry' ? 'close-up' : 'full-body',
        size: IMAGE_SIZES['2k'],
        aspectRatio: '9:16',
        promptEnhance: index === 0,
      }),
    (result) => saveImage(`on-model-${sample.name}`, result),
  );
  if (output) photos.push(output);
}

const base = photos[0] ?? { bytes: samples[0]!.photo, mimeType: 'image/jpeg' as const };
await timed(
  { operation: 'edit (free text)', listUsd: listUsd('image-edit') },
  () => providers.edit.edit({ image: { bytes: base.bytes, mimeType: base.mimeType }, instruction: 'replace the background with a warm beige plaster wall' }),
  (result) => saveImage('edit', result),
);
await timed(
  { operation: 'upscale to 4K', listUsd: listUsd('upscale-4k') },
  () => providers.upscale.upscale({ image: { bytes: base.bytes, mimeType: base.mimeType }, size: IMAGE_SIZES['4k'] }),
  (result) => saveImage('upscale-4k', result),
);

/** One 8 s 9:16 video: started, checked until ready, stored here, then finalized as the workflow does (seam measured). */
async function video(): Promise<void> {
  const size = VIDEO_SIZES['9:16'];
  const clipFile = join(outDir, 'video-raw.mp4');
  const pollMs = fakeMode ? 250 : 10_000;
  let start: () => Promise<{ operationName: string; model: string }>;
  let check: (operationName: string) => Promise<VideoStatus>;
  let fetchClip: (location: S3Location) => Promise<Buffer>;
  const request = { image: { bytes: samples[0]!.photo, mimeType: 'image/jpeg' as const }, prompt: 'Pivot', durationSeconds: 8, aspectRatio: '9:16' as const, size };
  if (config.video === 'google' && config.google) {
    // The Veo adapter itself, with its clip stored in this folder instead of the results bucket.
    const { createVeoVideo, googleApiKey, googleClient } = await import('../lambdas/providers/google/index.js');
    const apiKey = googleApiKey(config.google);
    const stored = new Map<string, Buffer>();
    const veo = createVeoVideo({
      client: googleClient({ apiKey, baseUrl: config.google.baseUrl }),
      model: config.google.videoModel,
      apiKey,
      baseUrl: config.google.baseUrl,
      store: async (location, bytes) => void stored.set(location.key, bytes),
    });
    start = () => veo.start({ ...request, output: { bucket: 'providers-check', key: 'video-raw.mp4' } });
    check = (name) => veo.check(name);
    fetchClip = async (location) => stored.get(location.key)!;
  } else if (config.video === 'bedrock' && process.env.PROVIDERS_CHECK_BUCKET) {
    const bucket = process.env.PROVIDERS_CHECK_BUCKET;
    const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const s3 = new S3Client({ region: config.bedrockRegion });
    start = () => providers.video.start({ ...request, output: { bucket, key: `providers-check/${Date.now()}/output.mp4` } });
    check = (name) => providers.video.check(name);
    fetchClip = async (location) => Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }))).Body!.transformToByteArray());
  } else {
    rows.push({ operation: 'video 8 s 9:16', provider: config.video, listUsd: listUsd('video-8s'), error: config.video === 'local' ? 'skipped: the local engine is no provider' : 'skipped: set PROVIDERS_CHECK_BUCKET' });
    return;
  }
  await timed(
    { operation: 'video 8 s 9:16', listUsd: listUsd('video-8s') },
    async () => {
      const started = await start();
      const deadline = Date.now() + 10 * 60_000;
      for (;;) {
        const status = await check(started.operationName);
        if (status.state === 'failed') throw status.error;
        if (status.state === 'completed') return { model: started.model, clip: await fetchClip(status.output) };
        if (Date.now() > deadline) throw new Error('not ready after 10 minutes');
        await sleep(pollMs);
      }
    },
    async ({ model, clip }) => {
      await writeFile(clipFile, clip);
      const work = await mkdtemp(join(tmpdir(), 'providers-check-'));
      try {
        const delivered = await deliverableVideo([clipFile], { durationSeconds: 8, size }, work);
        await writeFile(join(outDir, 'video.mp4'), await readFile(delivered.file));
        const seam = `${delivered.originalSeamScore.toFixed(2)} → ${delivered.seamScore.toFixed(2)}${delivered.steps.includes('repaired') ? ' (repaired)' : ''}`;
        return { provider: model, seam, file: 'video.mp4 (raw: video-raw.mp4)' };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  );
}
if (!args['no-video']) await video();

const lines = [
  `providers:check — ${fakeMode ? 'contract fakes on loopback (no credentials, no cost)' : 'real providers'}; outputs in ${outDir}`,
  '',
  '| operation | provider and model | latency | list cost | seam score | output |',
  '|---|---|---:|---:|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.operation} | ${row.provider} | ${row.latencyMs === undefined ? '—' : `${(row.latencyMs / 1000).toFixed(1)} s`} | $${row.listUsd.toFixed(3)} | ${row.seam ?? '—'} | ${row.error ? `FAILED: ${row.error}` : (row.file ?? '')} |`,
  ),
];
console.log(lines.join('\n'));
await writeFile(join(outDir, 'report.md'), `${lines.join('\n')}\n`);
await fake?.close();
const failed = rows.filter((row) => row.error && !row.error.startsWith('skipped'));
process.exit(failed.length > 0 ? 1 : 0);
