// `npm run preview:screenshots [-- <folder>]`: before/after pictures of the preview engine, made from the product
// fixtures (test/fixtures/products) with no twin running: a T-shirt, a dress on a hanger, a necklace, a batch strip
// (every camera angle) and frames of a 360 Spin. Each file puts the seller's photo (before) beside what the engine
// makes of it (after). Written to .data/preview-screenshots unless a folder is given.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { BATCH_CAMERA_ANGLES, IMAGE_SIZES } from '../lambdas/contracts/catalog.js';
import { readFrames } from '../lambdas/media/raw-video.js';
import { localOnModelImage } from '../lambdas/providers/local-engine/on-model-image.js';
import { renderLoopingClip } from '../lambdas/providers/local-engine/video-render.js';
import { seedOfDescription, type OnModelImageRequest } from '../lambdas/providers/ports.js';
import { productFixture, readProductFixture } from '../test/fixtures/products/catalog.js';

const folder = resolve(process.argv[2] ?? '.data/preview-screenshots');
const SIZE = IMAGE_SIZES['1k'];
const PANEL_HEIGHT = 640;
const GAP = 12;

/** Pictures side by side, each scaled to one height, on a dark strip. */
async function strip(pictures: Buffer[]): Promise<Buffer> {
  const panels = await Promise.all(pictures.map((picture) => sharp(picture).resize({ height: PANEL_HEIGHT }).png().toBuffer({ resolveWithObject: true })));
  const width = panels.reduce((sum, { info }) => sum + info.width, 0) + GAP * (panels.length + 1);
  let left = GAP;
  const layers = panels.map(({ data, info }) => {
    const layer = { input: data, left, top: GAP };
    left += info.width + GAP;
    return layer;
  });
  return sharp({ create: { width, height: PANEL_HEIGHT + 2 * GAP, channels: 3, background: '#1f2430' } }).composite(layers).png().toBuffer();
}

async function onModel(name: string, overrides: Partial<OnModelImageRequest> = {}): Promise<Buffer> {
  const fixture = productFixture(name);
  const description = overrides.model?.description ?? 'young woman, medium skin, brown hair, smiling';
  const output = await localOnModelImage.generate({
    product: { bytes: (await readProductFixture(fixture)).photo, mimeType: 'image/png' },
    productType: fixture.productType,
    model: { description, seed: seedOfDescription(description) },
    cameraZoom: 'auto',
    size: SIZE,
    aspectRatio: '9:16',
    promptEnhance: false,
    ...overrides,
  });
  return output.bytes;
}

async function spinFrames(name: string): Promise<Buffer[]> {
  const directory = await mkdtemp(join(tmpdir(), 'preview-spin-'));
  try {
    const file = join(directory, 'spin.mp4');
    const size = { width: 360, height: 640 };
    const { frames } = await renderLoopingClip({ image: (await readProductFixture(productFixture(name))).photo, preset: '360 Spin', durationSeconds: 8, size }, file);
    const wanted = [0, Math.round(frames / 8), Math.round(frames / 4) - 4, Math.round((3 * frames) / 8), frames / 2].map(Math.round);
    const pictures: Buffer[] = [];
    let index = 0;
    for await (const frame of readFrames(file, { ...size, pixelFormat: 'rgb24' })) {
      if (wanted.includes(index)) pictures.push(await sharp(frame, { raw: { ...size, channels: 3 } }).png().toBuffer());
      index++;
    }
    return pictures;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

await mkdir(folder, { recursive: true });
const photo = async (name: string) => (await readProductFixture(productFixture(name))).photo;
const shots: Array<[string, () => Promise<Buffer[]>]> = [
  ['tshirt.png', async () => [await photo('tshirt-on-white'), await onModel('tshirt-on-white'), await onModel('tshirt-on-white', { cameraZoom: 'full-body' })]],
  ['dress-on-hanger.png', async () => [await photo('dress-on-hanger'), await onModel('dress-on-hanger', { cameraZoom: 'full-body' }), await onModel('dress-on-hanger', { cameraZoom: 'full-body', model: { description: 'woman walking, blonde hair, fair skin', seed: 4 } })]],
  ['necklace.png', async () => [await photo('necklace-on-white'), await onModel('necklace-on-white'), await onModel('necklace-on-white', { cameraZoom: 'mid-shot' })]],
  ['batch-strip.png', async () => [await photo('tshirt-on-white'), ...(await Promise.all(BATCH_CAMERA_ANGLES.map((angle) => onModel('tshirt-on-white', { angle, backdrop: '#e8eef5' }))))]],
  ['360-spin.png', async () => [await photo('tshirt-on-white'), ...(await spinFrames('tshirt-on-white'))]],
];
for (const [file, make] of shots) {
  await writeFile(join(folder, file), await strip(await make()));
  console.log(`wrote ${join(folder, file)}`);
}
