// The finalize step's file work on real ffmpeg output: one encode per video. A clip already in the delivered format
// is delivered byte for byte; a clip in another size or frame rate is encoded to the delivered format; a clip whose
// only flaw is its index placement is remuxed, not encoded.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverableVideo } from '../../lambdas/domain/video/finalize.js';
import { probeVideo } from '../../lambdas/media/index.js';
import { runTool } from '../../lambdas/media/tools.js';
import { renderLoopingClip } from '../../lambdas/providers/local-engine/video-render.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';

const SLOW = 90_000;
const target = { durationSeconds: 2, size: { width: 180, height: 320 } };
let dir: string;
let rendered: string;

const sha256 = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');
const workDir = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path);
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-finalize-'));
  rendered = join(dir, 'rendered.mp4');
  await renderLoopingClip({ image: await tshirtPhoto(), preset: 'Pivot', ...target }, rendered);
}, SLOW);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('finalize: one encode per video', () => {
  it('delivers a clip already in the delivered format byte for byte, its seam measured, with a poster', async () => {
    const before = await sha256(rendered);
    const delivered = await deliverableVideo([rendered], target, await workDir('exact'));
    expect(delivered.steps).toEqual([]);
    expect(delivered.file).toBe(rendered);
    expect(await sha256(delivered.file)).toBe(before);
    expect(delivered.seamScore).toBeLessThanOrEqual(1);
    expect(delivered.originalSeamScore).toBe(delivered.seamScore);
    expect(delivered.probe).toMatchObject({ width: 180, height: 320, fps: 24, frames: 48, faststart: true });
    expect(await sharp(delivered.poster.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 180, height: 320 });
  }, SLOW);

  it('encodes a clip of the wrong size to the ordered size', async () => {
    const wider = { ...target, size: { width: 240, height: 320 } };
    const delivered = await deliverableVideo([rendered], wider, await workDir('size'));
    expect(delivered.steps).toContain('normalized');
    expect(await sha256(delivered.file)).not.toBe(await sha256(rendered));
    expect(await probeVideo(delivered.file)).toMatchObject({ width: 240, height: 320, fps: 24, frames: 48, codec: 'h264', pixelFormat: 'yuv420p', faststart: true });
    expect(delivered.seamScore).toBeLessThanOrEqual(1);
  }, SLOW);

  it('encodes a clip of the wrong frame rate to 24 fps with the exact frame count', async () => {
    const thirty = join(dir, 'thirty.mp4');
    await runTool('ffmpeg', ['-y', '-i', rendered, '-vf', 'fps=30', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', thirty]);
    expect(await probeVideo(thirty)).toMatchObject({ fps: 30, width: 180, height: 320 });
    const delivered = await deliverableVideo([thirty], target, await workDir('rate'));
    expect(delivered.steps).toContain('normalized');
    expect(await probeVideo(delivered.file)).toMatchObject({ width: 180, height: 320, fps: 24, frames: 48, durationSeconds: 2, faststart: true });
  }, SLOW);

  it('only remuxes a clip whose index comes after its media', async () => {
    const late = join(dir, 'late-index.mp4');
    await runTool('ffmpeg', ['-y', '-i', rendered, '-map', '0:v:0', '-c', 'copy', late]);
    expect(await probeVideo(late)).toMatchObject({ faststart: false, width: 180, height: 320, frames: 48 });
    const delivered = await deliverableVideo([late], target, await workDir('remux'));
    expect(delivered.steps).toEqual(['remuxed']);
    expect(delivered.probe).toMatchObject({ faststart: true, frames: 48 });
    // The same coded frames: a remux copies the stream, it doesn't encode it.
    const packets = (file: string) => runTool('ffmpeg', ['-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'h264', '-']);
    expect((await packets(delivered.file)).equals(await packets(rendered))).toBe(true);
  }, SLOW);
});
