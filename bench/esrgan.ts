// ESRGAN upscaling (esrgan-slim on tfjs WASM) against Lanczos: time per target size from a 1K on-model picture, and
// quality on the product fixtures (test/fixtures/products): each picture shrunk 2×/3×/4× with Lanczos and restored by
// ESRGAN or by Lanczos, compared with the original (PSNR in dB, SSIM on luma; higher is better).
// ESRGAN runs on onnxruntime in tiles (lambdas/providers/local-engine/esrgan-model.ts); the timing compares one thread
// with one per core. --tiles also times the tile sizes.
// Run: npx tsx bench/esrgan.ts [--skip-timing] [--skip-quality] [--tiles]
import { availableParallelism, loadavg } from 'node:os';
import sharp from 'sharp';
import { IMAGE_SIZES, UPSCALE_RESOLUTIONS } from '../lambdas/contracts/catalog.js';
import { esrganUpscale, type EsrganScale } from '../lambdas/providers/local-engine/esrgan.js';
import { localOnModelImage } from '../lambdas/providers/local-engine/on-model-image.js';
import { decodeRgba, type RgbaImage } from '../lambdas/providers/local-engine/raster.js';
import { createLocalUpscale, ESRGAN_MAX_SOURCE_PIXELS, esrganScaleFor } from '../lambdas/providers/local-engine/upscale.js';
import { PRODUCT_FIXTURES, readProductFixture } from '../test/fixtures/products/catalog.js';

function luma(image: RgbaImage): Float64Array {
  const out = new Float64Array(image.width * image.height);
  for (let p = 0; p < out.length; p++) out[p] = 0.299 * image.data[p * 4]! + 0.587 * image.data[p * 4 + 1]! + 0.114 * image.data[p * 4 + 2]!;
  return out;
}

function psnr(a: RgbaImage, b: RgbaImage): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (i % 4 === 3) continue;
    sum += (a.data[i]! - b.data[i]!) ** 2;
    n++;
  }
  return 10 * Math.log10((255 * 255) / Math.max(sum / n, 1e-9));
}

/** Mean SSIM over 8×8 windows (step 4) of luma, with the usual constants. */
function ssim(a: RgbaImage, b: RgbaImage): number {
  const x = luma(a);
  const y = luma(b);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let total = 0;
  let windows = 0;
  for (let top = 0; top + 8 <= a.height; top += 4) {
    for (let left = 0; left + 8 <= a.width; left += 4) {
      let mx = 0, my = 0;
      for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) { const p = (top + j) * a.width + left + i; mx += x[p]!; my += y[p]!; }
      mx /= 64; my /= 64;
      let vx = 0, vy = 0, cov = 0;
      for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) {
        const p = (top + j) * a.width + left + i;
        vx += (x[p]! - mx) ** 2; vy += (y[p]! - my) ** 2; cov += (x[p]! - mx) * (y[p]! - my);
      }
      vx /= 63; vy /= 63; cov /= 63;
      total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      windows++;
    }
  }
  return total / windows;
}

async function resize(image: RgbaImage, width: number, height: number): Promise<RgbaImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

console.log(`load average at start: ${loadavg()[0]!.toFixed(1)} (2 cores)`);
if (!process.argv.includes('--skip-quality')) {
console.log('\nquality: shrink ×s with Lanczos, restore ×s, compare with the original');
console.log('scale  picture                    PSNR lanczos  PSNR esrgan  SSIM lanczos  SSIM esrgan');
const totals = new Map<number, { pl: number; pe: number; sl: number; se: number; n: number }>();
for (const scale of [2, 4] as EsrganScale[]) {
  for (const fixture of PRODUCT_FIXTURES) {
    const original = await decodeRgba((await readProductFixture(fixture)).photo);
    // Crop to a multiple of the scale so the restored picture lines up with the original.
    const width = original.width - (original.width % scale);
    const height = original.height - (original.height % scale);
    const reference = await resize(original, width, height);
    const small = await resize(reference, width / scale, height / scale);
    const lanczos = await resize(small, width, height);
    const esrgan = await esrganUpscale(small, scale);
    const row = { pl: psnr(reference, lanczos), pe: psnr(reference, esrgan), sl: ssim(reference, lanczos), se: ssim(reference, esrgan) };
    const total = totals.get(scale) ?? { pl: 0, pe: 0, sl: 0, se: 0, n: 0 };
    totals.set(scale, { pl: total.pl + row.pl, pe: total.pe + row.pe, sl: total.sl + row.sl, se: total.se + row.se, n: total.n + 1 });
    console.log(`×${scale}     ${fixture.name.padEnd(26)} ${row.pl.toFixed(2).padStart(12)} ${row.pe.toFixed(2).padStart(12)} ${row.sl.toFixed(4).padStart(13)} ${row.se.toFixed(4).padStart(12)}`);
  }
}
for (const [scale, t] of totals) {
  console.log(`esrgan.x${scale}.mean psnr lanczos ${(t.pl / t.n).toFixed(2)} esrgan ${(t.pe / t.n).toFixed(2)}; ssim lanczos ${(t.sl / t.n).toFixed(4)} esrgan ${(t.se / t.n).toFixed(4)}`);
}
}

if (process.argv.includes('--tiles')) {
  // The tile size: one 360×360 crop of a fixture, ×2, one thread, each size twice (the better kept).
  const photo = await decodeRgba((await readProductFixture(PRODUCT_FIXTURES[0]!)).photo);
  const crop = await resize(photo, 360, 360);
  await esrganUpscale(crop, 2, { threads: 1 });
  console.log('\ntile size (one thread, 360×360 ×2): µs per source pixel');
  for (const tile of [64, 96, 128, 192, 256, 360]) {
    const runs: number[] = [];
    for (let run = 0; run < 2; run++) {
      const started = performance.now();
      await esrganUpscale(crop, 2, { threads: 1, tile });
      runs.push(((performance.now() - started) * 1000) / (360 * 360));
    }
    console.log(`esrgan.tile.${tile} ${Math.min(...runs).toFixed(1)} µs/px; load ${loadavg()[0]!.toFixed(1)}`);
  }
}

if (!process.argv.includes('--skip-timing')) {
  const cores = availableParallelism();
  console.log(
    `\ntime per source and target size, from on-model pictures; ESRGAN with 1 thread and with ${cores} (one per core); ` +
      `the default line is sources ≤ ${ESRGAN_MAX_SOURCE_PIXELS} px and targets ≤ 4K. CPU is the process's CPU time (all threads): ` +
      'the wall time a machine with free cores would see is about CPU ÷ threads.',
  );
  // The timing runs ESRGAN wherever it could apply (the line lifted), to show where the line belongs.
  process.env.PREVIEW_ESRGAN_MAX_PIXELS = String(Number.MAX_SAFE_INTEGER);
  const withEsrgan = createLocalUpscale();
  const lanczosOnly = createLocalUpscale({ superResolution: false });
  const sources = process.argv.includes('--source-2k') ? (['2k'] as const) : (['1k', '2k'] as const);
  for (const sourceName of sources) {
    const sourceSize = IMAGE_SIZES[sourceName];
    const source = await localOnModelImage.generate({
      product: { bytes: (await readProductFixture(PRODUCT_FIXTURES[0]!)).photo, mimeType: 'image/png' },
      productType: 'clothing',
      model: { description: 'model', seed: 1 },
      cameraZoom: 'auto',
      size: sourceSize,
      aspectRatio: '9:16',
      promptEnhance: false,
    });
    const sourcePixels = sourceSize.width * sourceSize.height;
    const image = { bytes: source.bytes, mimeType: 'image/png' as const };
    for (const [name, target] of Object.entries(UPSCALE_RESOLUTIONS)) {
      const size = { width: target.width, height: target.height };
      const label = `esrgan.time.${sourceName}-to-${name}`;
      const scale = esrganScaleFor(sourceSize, size, Infinity);
      let started = performance.now();
      await lanczosOnly.upscale({ image, size });
      console.log(`${label} ${sourceSize.width}×${sourceSize.height} → ${size.width}×${size.height}: lanczos ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (!scale) {
        console.log(`${label} esrgan: not used (an enlargement below ×2, or a target above 4K)`);
        continue;
      }
      for (const threads of [...new Set([1, cores])]) {
        process.env.PREVIEW_ESRGAN_THREADS = String(threads);
        const cpu = process.cpuUsage();
        started = performance.now();
        const output = await withEsrgan.upscale({ image, size });
        const wallMs = performance.now() - started;
        const used = process.cpuUsage(cpu);
        const cpuMs = (used.user + used.system) / 1000;
        console.log(
          `${label} esrgan ×${scale} + lanczos, ${threads} thread(s): ${(wallMs / 1000).toFixed(1)} s wall (${((wallMs * 1000) / sourcePixels).toFixed(0)} µs per source px), ` +
            `${(cpuMs / 1000).toFixed(1)} s CPU (${((cpuMs * 1000) / sourcePixels).toFixed(0)} µs per source px); ${output.model}; load ${loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
  }
}
