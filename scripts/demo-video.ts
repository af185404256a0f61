// The landing page's Watch Demo video: one of the landing page's own pictures (the red lehenga on its model) turned
// into a short, perfectly looping clip by the studio's local engine (the same renderer the twin's videos come from,
// so it carries the engine's Preview label). Written to web/public/demo/, which the web build copies as it is.
// Run: npx tsx scripts/demo-video.ts   (needs ffmpeg, as the twin's videos do)
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { renderLoopingClip } from '../lambdas/providers/local-engine/video-render.js';

const root = resolve(import.meta.dirname, '..');
export const DEMO_VIDEO_FILE = join(root, 'web/public/demo/demo-loop.mp4');
const SOURCE = join(root, 'web/public/demo/lehenga-red-after.svg');

const picture = await sharp(await readFile(SOURCE), { density: 144 }).resize({ width: 600 }).png().toBuffer();
const started = performance.now();
const { frames, cycles } = await renderLoopingClip({ image: picture, preset: 'Pivot', durationSeconds: 5, size: { width: 360, height: 640 } }, DEMO_VIDEO_FILE);
const { size } = await stat(DEMO_VIDEO_FILE);
console.log(`${DEMO_VIDEO_FILE}: ${frames} frames, ${cycles} motion cycles, ${(size / 1024).toFixed(0)} KB, ${((performance.now() - started) / 1000).toFixed(1)} s`);
