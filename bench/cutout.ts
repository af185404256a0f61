// The cutout against exact masks, on two sets: the drawn product pictures on plain backgrounds (test/fixtures/products)
// and the same products composited onto real photographs (test/fixtures/photographic). For each picture: IoU by each
// method (colour distance, the U²-Net-p network alone, and the one the engine chooses: on a busy background the network
// refined by the photo's colours, lambdas/providers/local-engine/network-cutout.ts), the method chosen and the time
// of the chosen cutout. Targets (issue #42): photographic mean ≥ 0.95, no clothing below 0.93, jewelry no worse than
// the colour cutout, ≤ 1 s CPU per picture.
// Run: npx tsx bench/cutout.ts
import sharp from 'sharp';
import { cutoutMethodFor } from '../lambdas/providers/local-engine/cutout.js';
import { decodeRgba } from '../lambdas/providers/local-engine/raster.js';
import { maskedPhotographicFixture, PHOTOGRAPHIC_FIXTURES } from '../test/fixtures/photographic/catalog.js';
import { PRODUCT_FIXTURES } from '../test/fixtures/products/catalog.js';
import { CUTOUT_METHODS, maskedProductFixture, pictureIoU, type MaskedPicture } from '../test/fixtures/products/iou.js';

// Load the network once, so its start (about 0.3 s) is not counted against the first picture.
await pictureIoU(await maskedProductFixture(PRODUCT_FIXTURES[0]!), 'network');

async function measure(set: string, pictures: MaskedPicture[]): Promise<void> {
  const header = ['picture', 'type', ...CUTOUT_METHODS, 'uses', 'ms'];
  const rows: string[][] = [];
  const sums = Object.fromEntries(CUTOUT_METHODS.map((method) => [method, 0])) as Record<(typeof CUTOUT_METHODS)[number], number>;
  let slowest = 0;
  for (const picture of pictures) {
    const scores: string[] = [];
    let ms = 0;
    for (const method of CUTOUT_METHODS) {
      const result = await pictureIoU(picture, method);
      sums[method] += result.iou;
      scores.push(result.iou.toFixed(4));
      if (method === 'chosen') ms = result.ms;
    }
    slowest = Math.max(slowest, ms);
    rows.push([picture.name, picture.kind, ...scores, cutoutMethodFor(await decodeRgba(picture.photo)), ms.toFixed(0)]);
  }
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  console.log(`\n${set} (${pictures.length} pictures)`);
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  for (const method of CUTOUT_METHODS) console.log(`cutout.${set}.${method}.mean-iou ${(sums[method] / pictures.length).toFixed(4)}`);
  console.log(`cutout.${set}.chosen.slowest-ms ${slowest.toFixed(0)}`);
}

await measure('drawn', await Promise.all(PRODUCT_FIXTURES.map(maskedProductFixture)));
const photographic = await Promise.all(PHOTOGRAPHIC_FIXTURES.map(maskedPhotographicFixture));
await measure('photographic', photographic);

// The same photographs enlarged ×4 (1440–1760 px, the size a seller's photo is cut out at): the refinement works on a
// copy at most 720 px long, so the time stays bounded; the masks are enlarged alike.
const enlarge = (bytes: Buffer, format: 'jpeg' | 'png') => sharp(bytes).resize({ width: 1440, kernel: format === 'png' ? 'nearest' : 'lanczos3' }).toFormat(format).toBuffer();
await measure('photographic-x4', await Promise.all(photographic.map(async (picture) => ({ ...picture, photo: await enlarge(picture.photo, 'jpeg'), mask: await enlarge(picture.mask, 'png') }))));
