// Local engine pictures: time per operation (median of several runs after a warm-up) and output size, for on-model
// pictures at 1k/2k/4k, each edit kind on a 2k product photo, and upscales of a 1k on-model picture to 2k/4k/8k.
// Run: npx tsx bench/images.ts
import { availableParallelism, loadavg } from 'node:os';
import sharp from 'sharp';
import { IMAGE_SIZES, UPSCALE_RESOLUTIONS } from '../lambdas/contracts/catalog.js';
import { localEdit, localOnModelImage, localUpscale } from '../lambdas/providers/local-engine/index.js';
import type { ImageOutput } from '../lambdas/providers/ports.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';

async function measure(runs: number, operation: () => Promise<ImageOutput>): Promise<{ ms: number; output: ImageOutput }> {
  let output = await operation(); // warm-up (JIT, libvips caches)
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    output = await operation();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1]!, output };
}

const loadAtStart = loadavg()[0]!;
const rows: string[][] = [];
async function row(name: string, runs: number, operation: () => Promise<ImageOutput>) {
  const { ms, output } = await measure(runs, operation);
  rows.push([name, `${output.width}×${output.height}`, `${(output.bytes.length / 1024).toFixed(0)} KB`, ms.toFixed(0)]);
}

const photo = await tshirtPhoto(1200, 1400);
for (const [name, size] of Object.entries(IMAGE_SIZES)) {
  await row(`on-model ${name} (clothing, auto)`, 5, () =>
    localOnModelImage.generate({
      product: { bytes: photo, mimeType: 'image/jpeg' },
      productType: 'clothing',
      model: { description: 'young female model', seed: 1 },
      cameraZoom: 'auto',
      size,
      aspectRatio: '9:16',
      promptEnhance: false,
    }),
  );
}

const photo2k = await sharp(await tshirtPhoto(IMAGE_SIZES['2k'].width, IMAGE_SIZES['2k'].height)).png().toBuffer();
for (const instruction of [
  'background white',
  'brighten by 20%',
  'darken by 20%',
  'increase contrast',
  'decrease contrast',
  'mirror',
  'flip vertically',
  'crop to the product',
  'grayscale',
  'rotate 90',
  'background #f5f5dc and mirror and brighten',
]) {
  await row(`edit 2k: ${instruction}`, 5, () => localEdit.edit({ image: { bytes: photo2k, mimeType: 'image/png' }, instruction }));
}

const picture1k = (
  await localOnModelImage.generate({
    product: { bytes: photo, mimeType: 'image/jpeg' },
    productType: 'clothing',
    model: { description: 'model', seed: 1 },
    cameraZoom: 'mid-shot',
    size: IMAGE_SIZES['1k'],
    aspectRatio: '9:16',
    promptEnhance: false,
  })
).bytes;
for (const [name, { width, height }] of Object.entries(UPSCALE_RESOLUTIONS)) {
  await row(`upscale 1k → ${name}`, name === '8k' ? 2 : 5, () =>
    localUpscale.upscale({ image: { bytes: picture1k, mimeType: 'image/png' }, size: { width, height } }),
  );
}

const header = ['operation', 'output', 'PNG size', 'ms (median)'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
console.log(`local engine pictures — ${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} (other work on the machine skews timings), sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}`);
console.log(line(header));
for (const cells of rows) console.log(line(cells));
