// ESRGAN upscaling (esrgan-slim on tfjs WASM) against Lanczos: time per target size from a 1K on-model picture, and
// quality on the product fixtures (test/fixtures/products): each picture shrunk 2×/3×/4× with Lanczos and restored by
// ESRGAN or by Lanczos, compared with the original (PSNR in dB, SSIM on luma; higher is better).
// Run: npx tsx bench/esrgan.ts [--skip-timing]
import { loadavg } from 'node:os';
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

if (!process.argv.includes('--skip-timing')) {
  console.log(`\ntime per target size, from a 1K on-model picture (${IMAGE_SIZES['1k'].width}×${IMAGE_SIZES['1k'].height}); the default line is sources ≤ ${ESRGAN_MAX_SOURCE_PIXELS} px`);
  const source = await localOnModelImage.generate({
    product: { bytes: (await readProductFixture(PRODUCT_FIXTURES[0]!)).photo, mimeType: 'image/png' },
    productType: 'clothing',
    model: { description: 'model', seed: 1 },
    cameraZoom: 'auto',
    size: IMAGE_SIZES['1k'],
    aspectRatio: '9:16',
    promptEnhance: false,
  });
  process.env.PREVIEW_ESRGAN_MAX_PIXELS = String(Number.MAX_SAFE_INTEGER);
  const withEsrgan = createLocalUpscale();
  const lanczosOnly = createLocalUpscale({ superResolution: false });
  for (const [name, target] of Object.entries(UPSCALE_RESOLUTIONS)) {
    const size = { width: target.width, height: target.height };
    // The timing runs ESRGAN wherever it could apply (the line lifted), to show where the line belongs.
    const scale = esrganScaleFor(IMAGE_SIZES['1k'], size, Infinity);
    let started = performance.now();
    await lanczosOnly.upscale({ image: { bytes: source.bytes, mimeType: 'image/png' }, size });
    const lanczosMs = performance.now() - started;
    started = performance.now();
    const output = scale ? await withEsrgan.upscale({ image: { bytes: source.bytes, mimeType: 'image/png' }, size }) : undefined;
    const esrganMs = performance.now() - started;
    console.log(
      `${name.padEnd(3)} ${size.width}×${size.height}: lanczos ${(lanczosMs / 1000).toFixed(1)} s; ` +
        (output ? `esrgan ×${scale} + lanczos ${(esrganMs / 1000).toFixed(1)} s (${output.model})` : 'esrgan: not used (past the line)') +
        `; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
}
