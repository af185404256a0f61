// The preview engine's framing of videos made from on-model photos, and how different the outputs of one order are,
// measured on decoded frames (test/support/video-framing.ts):
// - per preset × video ratio × source photo: the smallest margin over every frame between the model's head (and the
//   product) and the frame's nearest edge, in % of the frame's short side (≤ 0: cut off in some frame);
// - per preset, an order of 5 outputs: the distance of each pair (mean grey difference after the best shift in time,
//   forwards or backwards: a copy started later or played backwards measures about 0), and each output's seam score.
// Run: npx tsx bench/video-framing.ts [--size real|small] (small: the unit test's frames; real: 720×1280, 720×720, 1280×720)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOTION_PRESETS, VIDEO_SIZES } from '../lambdas/contracts/catalog.js';
import { measureSeam } from '../lambdas/media/index.js';
import { renderLoopingClip } from '../lambdas/providers/local-engine/video-render.js';
import { clipDistance, greyFrames, measureFraming, onModelSource } from '../test/support/video-framing.js';

const real = process.argv.includes('real');
const SIZES = real ? VIDEO_SIZES : { '9:16': { width: 180, height: 320 }, '1:1': { width: 240, height: 240 }, '16:9': { width: 320, height: 180 } };
const SOURCES = [
  { name: '1:1 Auto', size: { width: 1024, height: 1024 }, ratio: '1:1', zoom: 'auto' },
  { name: '4:5 Auto', size: { width: 1024, height: 1280 }, ratio: '4:5', zoom: 'auto' },
  { name: '9:16 Full body', size: { width: 720, height: 1280 }, ratio: '9:16', zoom: 'full-body' },
] as const;

const dir = await mkdtemp(join(tmpdir(), 'modelloop-bench-framing-'));
const percent = (pixels: number, short: number) => (pixels < 0 ? 'missing' : `${((100 * pixels) / short).toFixed(1)}%`);
try {
  const photos = await Promise.all(SOURCES.map((photo) => onModelSource(photo.size, photo.zoom, photo.ratio)));
  console.log(`Framing (${real ? 'real' : 'small'} sizes, 8 s, output 1; margin = closest approach to an edge over all frames, % of the short side)`);
  console.log(['preset', 'video', 'source', 'head margin', 'product margin'].join('\t'));
  for (const preset of MOTION_PRESETS) {
    for (const [ratio, size] of Object.entries(SIZES)) {
      for (const [index, photo] of SOURCES.entries()) {
        const file = join(dir, `${preset.replace(' ', '')}-${ratio.replace(':', 'x')}-${index}.mp4`);
        await renderLoopingClip({ image: photos[index]!, preset, durationSeconds: 8, size }, file);
        const framing = await measureFraming(file, size);
        const short = Math.min(size.width, size.height);
        console.log([preset, ratio, photo.name, percent(framing.headMargin, short), percent(framing.productMargin, short)].join('\t'));
      }
    }
  }
  console.log('\nOutputs of one order (5 × 5 s, 1:1, from the 1:1 photo): pairwise distance (grey levels), seam score of each');
  for (const preset of MOTION_PRESETS) {
    const size = SIZES['1:1'];
    const frames: Buffer[][] = [];
    const seams: string[] = [];
    for (let variant = 0; variant < 5; variant++) {
      const file = join(dir, `order-${preset.replace(' ', '')}-${variant}.mp4`);
      await renderLoopingClip({ image: photos[0]!, preset, durationSeconds: 5, size, variant }, file);
      seams.push((await measureSeam(file)).score.toFixed(2));
      frames.push(await greyFrames(file, size));
    }
    const pairs: string[] = [];
    for (let a = 0; a < 5; a++) for (let b = a + 1; b < 5; b++) pairs.push(`${a + 1}–${b + 1}: ${clipDistance(frames[a]!, frames[b]!).toFixed(1)}`);
    console.log(`${preset}\tseams ${seams.join(' ')}\t${pairs.join('  ')}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
