// The finalize step's media helpers on real ffmpeg output: probing, normalizing to an exact duration and size, the
// seam score, loop repair, sealing, the poster frame, and a clear message when ffmpeg is missing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_SIZES } from '../../lambdas/contracts/catalog.js';
import {
  measureSeam,
  normalizeVideo,
  probeVideo,
  repairLoop,
  sealLoop,
  seamScore,
  seamScoreOf,
  thumbnail,
} from '../../lambdas/media/index.js';
import { loopSamplePositions } from '../../lambdas/media/repair-loop.js';
import { panClip, patternClip, staticClip } from '../fixtures/media-clips.js';

const SLOW = 90_000;
let dir: string;
let pan: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-test-'));
  pan = await panClip(dir);
}, SLOW);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeVideo', () => {
  it('reports duration, size, codec, frames, fps and whether the index comes first', async () => {
    expect(await probeVideo(pan)).toEqual({
      durationSeconds: 5,
      width: 320,
      height: 240,
      codec: 'h264',
      pixelFormat: 'yuv420p',
      frames: 120,
      fps: 24,
      faststart: true,
    });
  });
});

describe('normalizeVideo', () => {
  it('trims a 9 s 1:1 clip to exactly 8 s of 9:16', async () => {
    const source = await patternClip(dir, 9, 360, 360);
    const output = await normalizeVideo(source, { durationSeconds: 8, size: VIDEO_SIZES['9:16'] });
    expect(output).toBe(join(dir, 'pattern-9s-360x360.normalized.mp4'));
    expect(await probeVideo(output)).toMatchObject({ durationSeconds: 8, frames: 192, width: 720, height: 1280, codec: 'h264', pixelFormat: 'yuv420p', fps: 24 });
    const mp4 = await readFile(output);
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
  }, SLOW);

  it('loops a clip that is too short up to the exact duration and crops 4:3 to 16:9', async () => {
    const output = await normalizeVideo(pan, { durationSeconds: 8, size: { width: 640, height: 360 } }, join(dir, 'extended.mp4'));
    expect(await probeVideo(output)).toMatchObject({ durationSeconds: 8, frames: 192, width: 640, height: 360 });
  }, SLOW);
});

describe('seam score', () => {
  it('is the seam difference over the median step, with the static case handled', () => {
    expect(seamScoreOf(2, [1, 2, 3])).toBe(1);
    expect(seamScoreOf(1, [4, 2, 100, 1])).toBeCloseTo(1 / 3);
    expect(seamScoreOf(0, [0, 0, 0])).toBe(0);
    expect(seamScoreOf(3, [0, 0, 0])).toBe(Number.POSITIVE_INFINITY);
  });

  it('is far above 1 for a pan that does not loop', async () => {
    expect(await seamScore(pan)).toBeGreaterThan(2);
  });

  it('is 0 for a video in which nothing moves', async () => {
    expect(await measureSeam(await staticClip(dir))).toMatchObject({ score: 0, seamDifference: 0, medianStepDifference: 0, frames: 48 });
  });
});

describe('repairLoop', () => {
  it('samples every output frame once around the circle, untouched in the middle, slowest at the seam', () => {
    const n = 120;
    const f = 12;
    const positions = loopSamplePositions(n, f);
    expect(positions).toHaveLength(n);
    const steps = positions.slice(1).map((p, k) => p - positions[k]!);
    steps.push(positions[0]! + (n - f) - positions[n - 1]!); // the seam, around the circle of n − f frames
    expect(steps.every((step) => step > 0 && step <= 1 + 1e-9)).toBe(true);
    expect(steps[n - 1]).toBeCloseTo(0.5);
    expect(Math.min(...steps)).toBeCloseTo(0.5);
    expect(positions[n / 2]! % 1).toBe(0);
    expect(positions[0]).toBeGreaterThanOrEqual(f - 1);
  });

  it('seals the pan: seam score ≤ 1 with the exact frame count, duration and size kept', async () => {
    const repaired = await repairLoop(pan);
    expect(repaired).toBe(join(dir, 'pan-5s-320x240.looped.mp4'));
    expect(await probeVideo(repaired)).toMatchObject({ durationSeconds: 5, frames: 120, width: 320, height: 240, codec: 'h264', fps: 24 });
    const seam = await measureSeam(repaired);
    expect(seam.score).toBeLessThanOrEqual(1);
    expect(seam.medianStepDifference, 'the footage still moves').toBeGreaterThan(1);
  }, SLOW);

  it('seals a slow 9:16 pan too', async () => {
    const slow = await panClip(dir, { seconds: 4, width: 180, height: 320, pixelsPerSecond: 12 });
    expect(await seamScore(slow)).toBeGreaterThan(1);
    const sealed = await sealLoop(slow, join(dir, 'slow-sealed.mp4'));
    expect(sealed).toMatchObject({ file: join(dir, 'slow-sealed.mp4'), repaired: true });
    expect(sealed.originalSeamScore).toBeGreaterThan(1);
    expect(sealed.seamScore).toBeLessThanOrEqual(1);
    expect(await probeVideo(sealed.file)).toMatchObject({ frames: 96, durationSeconds: 4, width: 180, height: 320 });
  }, SLOW);

  it('sealLoop leaves a clip whose loop already holds untouched', async () => {
    const still = await staticClip(dir);
    expect(await sealLoop(still)).toEqual({ file: still, seamScore: 0, repaired: false, originalSeamScore: 0 });
  });

  it('refuses a clip too short to cross-fade', async () => {
    const tiny = await staticClip(dir, 0.25);
    await expect(repairLoop(tiny)).rejects.toThrow(/too short/);
  });
});

describe('thumbnail', () => {
  it('is a JPEG of the first frame at the video’s size', async () => {
    const poster = await thumbnail(pan);
    expect(poster.mimeType).toBe('image/jpeg');
    expect([...poster.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(await sharp(poster.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
  });
});

describe('missing ffmpeg', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env.FFMPEG_PATH = saved.FFMPEG_PATH;
    process.env.FFPROBE_PATH = saved.FFPROBE_PATH;
    if (saved.FFMPEG_PATH === undefined) delete process.env.FFMPEG_PATH;
    if (saved.FFPROBE_PATH === undefined) delete process.env.FFPROBE_PATH;
  });

  it('fails fast naming the Debian package and the variable', async () => {
    process.env.FFPROBE_PATH = '/nonexistent/ffprobe';
    await expect(probeVideo(pan)).rejects.toThrow(/ffprobe not found.*Debian package 'ffmpeg'.*FFPROBE_PATH/);
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    await expect(thumbnail(pan)).rejects.toThrow(/ffmpeg not found.*apt-get install -y ffmpeg.*FFMPEG_PATH/);
  });
});
