// The cutout against exact masks, on four sets:
// - drawn: the drawn product pictures on plain backgrounds (test/fixtures/products);
// - tuning: the same products composited onto real photographs (test/fixtures/photographic), the set the cutout's
//   rules were tuned on, and the same ×4 (1440 px wide);
// - held-out: other products on other photographs (test/fixtures/held-out), never tuned on (issue #48). The docs quote
//   these figures. Its per-picture rows are printed only with --held-out-rows (for the record, not for tuning).
// For each picture: IoU by each method (colour distance, the U²-Net-p network alone, and the one the engine chooses),
// the method chosen, CPU time of the chosen cutout (process.cpuUsage: the machine is shared, so wall time says little),
// and for the held-out set: the stray pieces (kept pieces of the cutout that are background), "no product found", and
// the same pictures at 1600 px (the size a packshot's source is cut out at).
// Targets on the held-out set (issue #48): mean IoU ≥ 0.95, no clothing < 0.93, no jewelry < 0.85, no stray piece, no
// "no product found", ≤ 1 s CPU per picture at 1600 px.
// Run: npx tsx bench/cutout.ts [--held-out-rows] [--only held-out]
import sharp from 'sharp';
import { cutoutMethodFor } from '../lambdas/providers/local-engine/cutout.js';
import { decodeRgba } from '../lambdas/providers/local-engine/raster.js';
import { HELD_OUT_FIXTURES, maskedHeldOutFixture } from '../test/fixtures/held-out/catalog.js';
import { maskedPhotographicFixture, PHOTOGRAPHIC_FIXTURES } from '../test/fixtures/photographic/catalog.js';
import { PRODUCT_FIXTURES } from '../test/fixtures/products/catalog.js';
import { CUTOUT_METHODS, maskedProductFixture, pictureIoU, strayPieces, type MaskedPicture } from '../test/fixtures/products/iou.js';

const args = process.argv.slice(2);
const heldOutRows = args.includes('--held-out-rows');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

// Load the network once, so its start (about 0.3 s) is not counted against the first picture.
await pictureIoU(await maskedProductFixture(PRODUCT_FIXTURES[0]!), 'network');

interface Options {
  /** Print a row per picture. */
  rows: boolean;
  /** Also count stray pieces and empty cutouts of the chosen method. */
  strays?: boolean;
}

async function measure(set: string, pictures: MaskedPicture[], { rows: printRows, strays }: Options): Promise<void> {
  const header = ['picture', 'type', ...CUTOUT_METHODS, 'uses', 'cpu-ms', ...(strays ? ['strays'] : [])];
  const rows: string[][] = [];
  const sums = Object.fromEntries(CUTOUT_METHODS.map((method) => [method, 0])) as Record<(typeof CUTOUT_METHODS)[number], number>;
  const lowest: Record<string, number> = {};
  let slowest = 0;
  let strayCount = 0;
  let empty = 0;
  for (const picture of pictures) {
    const scores: string[] = [];
    let ms = 0;
    let stray = 0;
    for (const method of CUTOUT_METHODS) {
      const result = await pictureIoU(picture, method);
      sums[method] += result.iou;
      scores.push(result.iou.toFixed(4));
      if (method !== 'chosen') continue;
      ms = result.cpuMs;
      lowest[picture.kind] = Math.min(lowest[picture.kind] ?? 1, result.iou);
      if (strays) {
        stray = await strayPieces(picture, result.alpha);
        strayCount += stray > 0 ? 1 : 0;
        if (!result.alpha.some((value) => value >= 128)) empty++;
      }
    }
    slowest = Math.max(slowest, ms);
    rows.push([picture.name, picture.kind, ...scores, cutoutMethodFor(await decodeRgba(picture.photo)), ms.toFixed(0), ...(strays ? [String(stray)] : [])]);
  }
  console.log(`\n${set} (${pictures.length} pictures)`);
  if (printRows) {
    const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  }
  for (const method of CUTOUT_METHODS) console.log(`cutout.${set}.${method}.mean-iou ${(sums[method] / pictures.length).toFixed(4)}`);
  for (const [kind, iou] of Object.entries(lowest)) console.log(`cutout.${set}.chosen.lowest-${kind}-iou ${iou.toFixed(4)}`);
  console.log(`cutout.${set}.chosen.slowest-cpu-ms ${slowest.toFixed(0)}`);
  if (strays) {
    console.log(`cutout.${set}.chosen.pictures-with-stray-pieces ${strayCount}`);
    console.log(`cutout.${set}.chosen.no-product-found ${empty}`);
  }
}

const enlarge = async (picture: MaskedPicture, width: number): Promise<MaskedPicture> => ({
  ...picture,
  photo: await sharp(picture.photo).resize({ width, kernel: 'lanczos3' }).jpeg({ quality: 90 }).toBuffer(),
  mask: await sharp(picture.mask).resize({ width, kernel: 'nearest' }).png().toBuffer(),
});
/** The picture enlarged so that its longest side is `side`. */
const toLongestSide = async (picture: MaskedPicture, side: number): Promise<MaskedPicture> => {
  const { width, height } = await sharp(picture.photo).metadata();
  return enlarge(picture, Math.round((side * width!) / Math.max(width!, height!)));
};

if (!only || only === 'drawn') await measure('drawn', await Promise.all(PRODUCT_FIXTURES.map(maskedProductFixture)), { rows: true });
if (!only || only === 'tuning') {
  const tuning = await Promise.all(PHOTOGRAPHIC_FIXTURES.map(maskedPhotographicFixture));
  await measure('tuning', tuning, { rows: true, strays: true });
  // The same photographs ×4 (1440 px wide, the size a seller's photo is cut out at): the masks are enlarged alike.
  await measure('tuning-x4', await Promise.all(tuning.map((picture) => enlarge(picture, 1440))), { rows: true });
}
if (!only || only === 'held-out') {
  const heldOut = await Promise.all(HELD_OUT_FIXTURES.map(maskedHeldOutFixture));
  await measure('held-out', heldOut, { rows: heldOutRows, strays: true });
  await measure('held-out-1600', await Promise.all(heldOut.map((picture) => toLongestSide(picture, 1600))), { rows: heldOutRows, strays: true });
}
