// `npm run providers:check`: first asks each provider whether each configured model is still served and prints one line
// per model (served / missing / shutting down on a date, read with the dated model tables: lambdas/domain/operations/
// model-check.ts), then runs every configured AI port once on the bundled sample product photos (a T-shirt on a
// hanger, a flat lay, a necklace: scripts/providers-check/samples.ts), prints a table (operation, provider and model,
// latency, list cost, seam score for videos) and saves every output to a folder to look at.
//
// With real credentials it calls the providers the environment selects, exactly as the deployed functions do: the same
// variables (PROVIDER_IMAGE, PROVIDER_EDIT, PROVIDER_UPSCALE, PROVIDER_VIDEO, GOOGLE_API_KEY_SECRET or GOOGLE_API_KEY,
// BEDROCK_REGION, FASHN_*; docs/deploy.md prints them from a deployed stack) and the AWS credentials of the shell. A
// Luma video needs a bucket in the Bedrock region to write to: PROVIDERS_CHECK_BUCKET. Without any cloud provider
// selected (or with --fake) it runs against the contract fakes on loopback (test/support/fake-google.ts): no
// network, no cost, so CI runs it too; there it makes a closed-loop video of each length (5, 8 and 16 s) through
// the Interactions API, with the product photo as the first and the last keyframe of every clip.
//
//   npm run providers:check                      the environment's providers (the fakes when none is selected)
//   npm run providers:check -- --fake            the contract fakes whatever the environment says
//   npm run providers:check -- --out <folder>    where outputs go (default providers-check/<time>)
//   npm run providers:check -- --durations 5,16  the video lengths to make (default 8 with real providers, 5,8,16 on
//                                                the fakes; a real 8 s Omni clip at 720p lists at about $0.84)
//   npm run providers:check -- --no-video        skip the videos
//   npm run providers:check -- --models-only     only the model lines
// It exits 1 when a model is not served or an operation failed.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { IMAGE_SIZES, VIDEO_DURATIONS, VIDEO_SIZES, videoTier, type PricingTierId } from '../lambdas/contracts/catalog.js';
import { checkModels, formatLine, notServed, probesFor, selectionOf } from '../lambdas/domain/operations/model-check.js';
import { deliverableVideo } from '../lambdas/domain/video/finalize.js';
import { operationCosts } from '../lambdas/providers/list-prices.js';
import type { ChainedVideoPort, ImageInput, ImageOutput, S3Location } from '../lambdas/providers/ports.js';
import { runTool } from '../lambdas/media/tools.js';
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
  options: {
    fake: { type: 'boolean', default: false },
    out: { type: 'string' },
    durations: { type: 'string' },
    'no-video': { type: 'boolean', default: false },
    'models-only': { type: 'boolean', default: false },
  },
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

// ——— Each configured model: is it still served? ———
const modelLines = await checkModels(selectionOf(config), probesFor(config));
console.log(['providers:check — models', ...modelLines.map((line) => `  ${formatLine(line)}`), ''].join('\n'));
const modelsNotServed = notServed(modelLines);
if (args['models-only']) {
  await fake?.close();
  process.exit(modelsNotServed.length > 0 ? 1 : 0);
}

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

const durations = (args.durations ?? (fakeMode ? VIDEO_DURATIONS.join(',') : '8')).split(',').map((value) => Number(value.trim()));
for (const seconds of durations) {
  if (!(VIDEO_DURATIONS as readonly number[]).includes(seconds)) throw new Error(`--durations: videos are ${VIDEO_DURATIONS.join(', ')} s long (got ${seconds})`);
}

/** The last frame of a clip file as a PNG: the keyframe of a chained clip that starts from the clip before. */
async function lastFrameOf(clipFile: string): Promise<ImageInput> {
  const frame = `${clipFile}.last.png`;
  await runTool('ffmpeg', ['-y', '-sseof', '-1', '-i', clipFile, '-map', '0:v:0', '-update', '1', '-f', 'image2', '-c:v', 'png', frame]);
  return { bytes: await readFile(frame), mimeType: 'image/png' };
}

/** The video port and where its clips end up, as the workflow would use them. */
async function videoSetup(): Promise<{ port: ChainedVideoPort; output: (key: string) => S3Location; fetchClip: (location: S3Location) => Promise<Buffer> } | string> {
  if (config.video === 'google' && config.google) {
    // The Omni adapter itself, with its clips stored in this folder instead of the results bucket.
    const { createOmniVideo, googleApiKey, googleClient } = await import('../lambdas/providers/google/index.js');
    const apiKey = googleApiKey(config.google);
    const stored = new Map<string, Buffer>();
    const port = createOmniVideo({
      client: googleClient({ apiKey, baseUrl: config.google.baseUrl }),
      model: config.google.videoModel,
      resolution: config.google.videoResolution,
      apiKey,
      baseUrl: config.google.baseUrl,
      store: async (location, bytes) => void stored.set(location.key, bytes),
    });
    return { port, output: (key) => ({ bucket: 'providers-check', key }), fetchClip: async (location) => stored.get(location.key)! };
  }
  const bucket = process.env.PROVIDERS_CHECK_BUCKET;
  if (config.video === 'local') return 'skipped: the local engine is no provider';
  if (!bucket) return 'skipped: set PROVIDERS_CHECK_BUCKET';
  const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const s3 = new S3Client({ region: config.bedrockRegion });
  return {
    port: providers.video,
    output: (key) => ({ bucket, key: `providers-check/${Date.now()}/${key}` }),
    fetchClip: async (location) => Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }))).Body!.transformToByteArray()),
  };
}

/** One 9:16 video of `seconds`: its clips started, checked until ready and stored here, then finalized as the workflow does. */
async function video(seconds: number): Promise<void> {
  const operation = `video ${seconds} s 9:16`;
  const setup = await videoSetup();
  if (typeof setup === 'string') {
    rows.push({ operation, provider: config.video, listUsd: listUsd(videoTier(seconds)), error: setup });
    return;
  }
  const size = VIDEO_SIZES['9:16'];
  const pollMs = fakeMode ? 250 : 10_000;
  const source: ImageInput = { bytes: samples[0]!.photo, mimeType: 'image/jpeg' };
  const interactionsBefore = fake?.interactions.length ?? 0;
  await timed(
    { operation, listUsd: listUsd(videoTier(seconds)) },
    async () => {
      const plan = setup.port.planClips(seconds);
      const clipFiles: string[] = [];
      let model = '';
      for (const [clipIndex, clip] of plan.entries()) {
        const image = clipIndex === 0 || clip.keyframe === 'source' ? source : await lastFrameOf(clipFiles[clipIndex - 1]!);
        const started = await setup.port.start({
          image,
          ...(clip.endKeyframe === 'source' ? { endImage: source } : {}),
          prompt: 'Pivot',
          durationSeconds: seconds,
          aspectRatio: '9:16',
          size,
          output: setup.output(`video-${seconds}s-clip-${clipIndex}.mp4`),
          clipIndex,
        });
        model = started.model;
        const deadline = Date.now() + 10 * 60_000;
        for (;;) {
          const status = await setup.port.check(started.operationName);
          if (status.state === 'failed') throw status.error;
          if (status.state === 'completed') {
            const file = join(outDir, `video-${seconds}s-raw-${clipIndex}.mp4`);
            await writeFile(file, await setup.fetchClip(status.output));
            clipFiles.push(file);
            break;
          }
          if (Date.now() > deadline) throw new Error('not ready after 10 minutes');
          await sleep(pollMs);
        }
      }
      return { model, clipFiles, plan };
    },
    async ({ model, clipFiles, plan }) => {
      const work = await mkdtemp(join(tmpdir(), 'providers-check-'));
      try {
        const delivered = await deliverableVideo(clipFiles, { durationSeconds: seconds, size }, work);
        await writeFile(join(outDir, `video-${seconds}s.mp4`), await readFile(delivered.file));
        // On the fakes the Interactions requests are at hand: every clip's first and last keyframe was the product photo.
        const sent = fake?.interactions.slice(interactionsBefore) ?? [];
        const closed = sent.length === plan.length && sent.every((interaction) => interaction.lastFrame?.equals(interaction.firstFrame));
        const clips = plan.map((clip) => `${clip.seconds} s`).join(' + ');
        const seam = `${delivered.originalSeamScore.toFixed(2)} → ${delivered.seamScore.toFixed(2)}${delivered.steps.includes('repaired') ? ' (repaired)' : ''}`;
        return {
          provider: model,
          seam: `${seam}; clips ${clips}${fake ? (closed ? ', photo first and last keyframe' : ', KEYFRAMES NOT CLOSED') : ''}`,
          file: `video-${seconds}s.mp4 (raw: ${clipFiles.map((file) => file.slice(outDir.length + 1)).join(', ')})`,
          ...(fake && !closed ? { error: 'a clip was not asked to end on its first keyframe' } : {}),
        };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  );
}
if (!args['no-video']) for (const seconds of durations) await video(seconds);

const lines = [
  `providers:check — ${fakeMode ? 'contract fakes on loopback (no credentials, no cost)' : 'real providers'}; outputs in ${outDir}`,
  '',
  ...modelLines.map((line) => `- ${formatLine(line)}`),
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
process.exit(failed.length > 0 || modelsNotServed.length > 0 ? 1 : 0);
