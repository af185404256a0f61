// The local engine's videos: every preset renders an exact, H.264, faststart clip whose loop is measured to hold,
// written to S3 through the client the caller gave; custom prompts map to presets by keyword.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTION_PRESETS, VIDEO_SIZES } from '../../lambdas/contracts/catalog.js';
import { formatDifferences } from '../../lambdas/domain/video/finalize.js';
import { measureSeam, probeVideo } from '../../lambdas/media/index.js';
import { readFrames } from '../../lambdas/media/raw-video.js';
import sharp from 'sharp';
import { hasPlainBackground } from '../../lambdas/providers/local-engine/cutout.js';
import { createLocalEngine, LocalVideoEngine, localOnModelImage, presetForPrompt } from '../../lambdas/providers/local-engine/index.js';
import { decodeRgba } from '../../lambdas/providers/local-engine/raster.js';
import { cyclesIn, describeOutput, motionStyle, poseAt, readMotionPrompt } from '../../lambdas/providers/local-engine/motion.js';
import { createHash } from 'node:crypto';
import type { VideoStartRequest } from '../../lambdas/providers/ports.js';
import { lShapePhoto, tshirtPhoto } from '../fixtures/local-engine-images.js';

const SLOW = 90_000;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-engine-video-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the adapter against a mocked S3 client and returns the uploaded MP4 as a file. */
async function renderThroughS3(
  request: Omit<VideoStartRequest, 'image' | 'output' | 'aspectRatio'>,
  name: string,
  photo: Promise<Buffer> = tshirtPhoto(),
) {
  const s3 = new S3Client({ region: 'us-east-1' });
  const uploads: Array<{ Bucket?: string; Key?: string; Body?: unknown; ContentType?: string }> = [];
  mockClient(s3).on(PutObjectCommand).callsFake((input) => (uploads.push(input), {}));
  let created = 0;
  const engine = new LocalVideoEngine(() => (created++, s3));
  const output = { bucket: 'results', key: `user-1/videos/${name}.mp4` };
  const started = await engine.start({
    image: { bytes: await photo, mimeType: 'image/jpeg' },
    aspectRatio: '9:16',
    output,
    ...request,
  });
  expect(started).toEqual({ operationName: `local:results/user-1/videos/${name}.mp4`, model: 'preview-engine' });
  expect(await engine.check(started.operationName)).toEqual({ state: 'completed', output });
  expect(created).toBe(1);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toMatchObject({ Bucket: 'results', Key: output.key, ContentType: 'video/mp4' });
  const file = join(dir, `${name}.mp4`);
  await writeFile(file, uploads[0]!.Body as Buffer);
  return file;
}

async function expectExactLoopingClip(file: string, durationSeconds: number, size: { width: number; height: number }) {
  const probe = await probeVideo(file);
  expect(probe).toMatchObject({ ...size, durationSeconds, codec: 'h264', pixelFormat: 'yuv420p', fps: 24, frames: durationSeconds * 24 });
  const mp4 = await readFile(file);
  expect(mp4.indexOf('moov'), 'faststart: the index comes before the media').toBeLessThan(mp4.indexOf('mdat'));
  expect(formatDifferences(probe, { durationSeconds, size }), 'finalize delivers it as rendered, without re-encoding').toEqual([]);
  const seam = await measureSeam(file);
  expect(seam.score).toBeLessThanOrEqual(1);
  expect(seam.medianStepDifference, 'it really moves').toBeGreaterThan(0.05);
  return seam;
}

describe('local video engine', () => {
  // Each preset once at a real size; together they cover every aspect ratio and the 5 s and 8 s durations.
  it.each([
    ['Pivot', '9:16', 8],
    ['Catwalk', '1:1', 5],
    ['360 Spin', '16:9', 5],
  ] as const)('%s renders an exact %s %i s loop', async (preset, ratio, durationSeconds) => {
    const size = VIDEO_SIZES[ratio];
    const file = await renderThroughS3({ prompt: preset, durationSeconds, size }, preset.replace(' ', ''));
    await expectExactLoopingClip(file, durationSeconds, size);
  }, SLOW);

  it('renders 16 s exactly, with a custom prompt mapped to a preset', async () => {
    const size = { width: 320, height: 180 };
    const file = await renderThroughS3({ prompt: 'the model walks down the runway', durationSeconds: 16, size }, 'custom16');
    await expectExactLoopingClip(file, 16, size);
  }, SLOW);

  it('is deterministic: the same request gives the same bytes', async () => {
    const request = { prompt: 'Pivot', durationSeconds: 5, size: { width: 240, height: 240 } };
    const [a, b] = [await renderThroughS3(request, 'same-a'), await renderThroughS3(request, 'same-b')];
    expect((await readFile(a)).equals(await readFile(b))).toBe(true);
  }, SLOW);

  // "Number of videos: 5" must give five different videos, not one file five times; each keeps the exact loop.
  it.each(MOTION_PRESETS)('%s: the outputs of one job are different videos, each an exact loop', async (preset) => {
    const size = { width: 240, height: 240 };
    const outputs = preset === 'Pivot' ? 5 : 3;
    const checksums = new Set<string>();
    for (let variant = 0; variant < outputs; variant++) {
      const file = await renderThroughS3({ prompt: preset, durationSeconds: 5, size, variant }, `${preset.replace(' ', '')}-v${variant}`);
      checksums.add(createHash('sha256').update(await readFile(file)).digest('hex'));
      const seam = await measureSeam(file);
      expect(seam.score, `output ${variant + 1}'s seam`).toBeLessThanOrEqual(1);
      expect(seam.medianStepDifference, `output ${variant + 1} really moves`).toBeGreaterThan(0.05);
    }
    expect(checksums.size).toBe(outputs);
  }, SLOW * 2);

  it('360 Spin shows the mirrored product (its back) half-way through the turn', async () => {
    const size = { width: 240, height: 240 };
    const file = await renderThroughS3({ prompt: '360 Spin', durationSeconds: 5, size }, 'spin-small', lShapePhoto());
    const frames: Buffer[] = [];
    for await (const frame of readFrames(file, { ...size, pixelFormat: 'gray' })) frames.push(frame);
    const [first, half] = [frames[0]!, frames[frames.length / 2]!];
    // The product's shape (what is not the backdrop): the back is darker, so shapes are compared, not grey levels.
    const shape = (frame: Buffer, index: number) => Math.abs(frame[index]! - frame[0]!) > 12;
    const difference = (mirror: boolean) => {
      let differing = 0;
      for (let y = 0; y < 200; y++) { // above the corner label
        for (let x = 0; x < size.width; x++) {
          if (shape(first, y * size.width + x) !== shape(half, y * size.width + (mirror ? size.width - 1 - x : x))) differing++;
        }
      }
      return differing / (200 * size.width);
    };
    expect(difference(true)).toBeLessThan(0.02);
    expect(difference(false)).toBeGreaterThan(5 * difference(true));
  }, SLOW);

  it('moves a whole scene (no plain background) like a camera, never showing its edges', async () => {
    const size = { width: 180, height: 320 };
    const scene = sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="1280"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
          `<stop offset="0" stop-color="#e01010"/><stop offset="1" stop-color="#1010e0"/></linearGradient>` +
          // Dots of the reversed gradient (a scene has detail everywhere, so a camera move changes every part of the
          // frame); every colour, blends included, stays on the red–blue line, far from the studio's grey.
          `<linearGradient id="r" x1="1" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#e01010"/><stop offset="1" stop-color="#1010e0"/></linearGradient>` +
          `<pattern id="dots" width="80" height="80" patternUnits="userSpaceOnUse"><circle cx="40" cy="40" r="22" fill="url(#r)"/></pattern></defs>` +
          `<rect width="720" height="1280" fill="url(#g)"/><rect width="720" height="1280" fill="url(#dots)"/></svg>`,
      ),
    ).png().toBuffer();
    const corners = [[0, 0], [size.width - 1, 0], [0, size.height - 1], [size.width - 1, size.height - 1]] as const;
    /** Mean absolute difference (0–255) of two RGB frames over one quarter of the picture. */
    const quarterDifference = (a: Buffer, b: Buffer, [qx, qy]: readonly [number, number]) => {
      let sum = 0;
      let count = 0;
      for (let y = (qy * size.height) / 2; y < ((qy + 1) * size.height) / 2; y++) {
        for (let x = (qx * size.width) / 2; x < ((qx + 1) * size.width) / 2; x++) {
          for (let channel = 0; channel < 3; channel++, count++) sum += Math.abs(a[(y * size.width + x) * 3 + channel]! - b[(y * size.width + x) * 3 + channel]!);
        }
      }
      return sum / count;
    };
    for (const prompt of ['Pivot', 'Catwalk']) {
      const file = await renderThroughS3({ prompt, durationSeconds: 5, size }, `scene-${prompt}`, scene);
      const frames: Buffer[] = [];
      const studioAt: string[] = [];
      for await (const frame of readFrames(file, { ...size, pixelFormat: 'rgb24' })) {
        frames.push(frame);
        for (const [x, y] of corners) {
          const i = (y * size.width + x) * 3;
          const [r, g, b] = [frame[i]!, frame[i + 1]!, frame[i + 2]!];
          // The gradient is saturated everywhere; the studio backdrop is grey.
          if (Math.max(r, g, b) - Math.min(r, g, b) < 60) studioAt.push(`frame ${frames.length - 1} (${x}, ${y})`);
        }
      }
      expect(studioAt, `${prompt}: the studio shows at a corner`).toEqual([]);
      expect(frames, prompt).toHaveLength(5 * 24);
      // The camera moves: every quarter of the picture changes over the loop, not only the middle.
      for (const quarter of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const most = Math.max(...frames.map((frame) => quarterDifference(frames[0]!, frame, quarter)));
        expect(most, `${prompt}: quarter ${quarter.join(',')} moves`).toBeGreaterThan(2);
      }
    }
  }, SLOW);

  it('tells product photos (plain background) from scenes', async () => {
    const onModel = await localOnModelImage.generate({
      product: { bytes: await tshirtPhoto(), mimeType: 'image/jpeg' },
      productType: 'clothing',
      model: { description: 'model', seed: 1 },
      cameraZoom: 'mid-shot',
      size: { width: 720, height: 1280 },
      aspectRatio: '9:16',
      promptEnhance: false,
    });
    expect(hasPlainBackground(await decodeRgba(await tshirtPhoto()))).toBe(true);
    expect(hasPlainBackground(await decodeRgba(await lShapePhoto()))).toBe(true);
    expect(hasPlainBackground(await decodeRgba(onModel.bytes))).toBe(false);
  });

  it('reports an operation name it did not make as failed', async () => {
    const engine = createLocalEngine({ s3: new S3Client({ region: 'us-east-1' }) }).video;
    expect(await engine.check('bedrock:arn:aws:whatever')).toMatchObject({ state: 'failed', error: { kind: 'failed' } });
  });
});

describe('motion presets', () => {
  it.each(MOTION_PRESETS)('%s is periodic over the clip and turns around at the seam, in every output variant', (preset) => {
    for (const [durationSeconds, variant] of [5, 8, 16].flatMap((seconds) => [0, 1, 2, 3, 4].map((variant) => [seconds, variant] as const))) {
      const frames = durationSeconds * 24;
      const style = motionStyle(variant);
      const cycles = cyclesIn(preset, durationSeconds, style);
      expect(Number.isInteger(cycles) && cycles >= 1).toBe(true);
      const at = (frame: number) => poseAt(preset, frame, frames, cycles, style);
      for (const [key, value] of Object.entries(at(0))) {
        expect(at(frames)[key as keyof ReturnType<typeof at>]).toBeCloseTo(value, 12);
        // Even in time: one frame before the seam looks like one frame after it.
        expect(at(frames - 1)[key as keyof ReturnType<typeof at>]).toBeCloseTo(at(1)[key as keyof ReturnType<typeof at>], 12);
      }
    }
  });

  it('output variants differ from each other in their motion, and each says how', () => {
    const quarter = (variant: number) => poseAt('Pivot', 7, 120, cyclesIn('Pivot', 5, motionStyle(variant)), motionStyle(variant));
    const poses = [0, 1, 2, 3, 4].map((variant) => JSON.stringify(Object.values(quarter(variant)).map((value) => value.toFixed(6))));
    expect(new Set(poses).size).toBe(5);
    expect([0, 1, 2, 3, 4].map((index) => describeOutput('360 Spin', index))).toEqual([
      'Output 1: steady camera.',
      'Output 2: turns the other way; the camera pans from left to right and back.',
      'Output 3: twice as fast; the camera moves in and back out.',
      'Output 4: turns the other way; from further away, the camera rises and comes back down.',
      'Output 5: twice as fast; the camera moves in and back out and pans from right to left and back.',
    ]);
    expect(describeOutput('Pivot', 1)).toBe('Output 2: leans the other way first; the camera pans from left to right and back.');
  });

  it('360 Spin mirrors the product for the back half of the turn', () => {
    expect(poseAt('360 Spin', 0, 120, 1).scaleX).toBeCloseTo(1);
    expect(poseAt('360 Spin', 60, 120, 1).scaleX).toBeCloseTo(-1);
  });

  it.each([
    ['Pivot', 'Pivot'],
    ['catwalk', 'Catwalk'],
    ['360 spin', '360 Spin'],
    ['slowly rotate the dress 360 degrees', '360 Spin'],
    ['turntable view of the handbag', '360 Spin'],
    ['model walking towards the camera', 'Catwalk'],
    ['strut down the runway', 'Catwalk'],
    ['gentle tilt and lean', 'Pivot'],
    ['something beautiful', 'Pivot'],
    ['', 'Pivot'],
  ] as const)('maps the prompt "%s" to %s', (prompt, preset) => {
    expect(presetForPrompt(prompt)).toBe(preset);
  });

  it.each([
    ['the model twirls around and waves at the camera', '360 Spin', ['the model twirls around'], ['waves at the camera']],
    ['Catwalk', 'Catwalk', ['Catwalk'], []],
    ['a slow turn to the left and back', 'Pivot', ['a slow turn to the left'], []],
    ['walks down the runway, smiles and spins', 'Catwalk', ['walks down the runway'], ['smiles', 'spins']],
    ['slowly rotate the dress 360 degrees, seamless loop', '360 Spin', ['slowly rotate the dress 360 degrees'], []],
    ['something beautiful', undefined, [], ['something beautiful']],
  ] as const)('reads "%s": %s, following %j, not rendering %j', (prompt, preset, followed, notRendered) => {
    expect(readMotionPrompt(prompt)).toEqual({ preset, followed, notRendered });
  });
});

describe('360 Spin turns the cut-out product', () => {
  async function frames(file: string, size: { width: number; height: number }): Promise<Buffer[]> {
    const all: Buffer[] = [];
    for await (const frame of readFrames(file, { ...size, pixelFormat: 'rgb24' })) all.push(frame);
    return all;
  }
  const count = (frame: Buffer, match: (r: number, g: number, b: number) => boolean) => {
    let n = 0;
    for (let i = 0; i < frame.length; i += 3) if (match(frame[i]!, frame[i + 1]!, frame[i + 2]!)) n++;
    return n;
  };
  const printBlue = (r: number, g: number, b: number) => b > 120 && r < 90 && g < 120 && b - r > 60;

  it("shows the back half of the turn as the product's back: the cut-out mirrored and darkened, not a flat silhouette", async () => {
    const size = { width: 320, height: 320 };
    const file = await renderThroughS3({ prompt: '360 Spin', durationSeconds: 5, size }, 'spin-back');
    const all = await frames(file, size);
    const front = all[0]!;
    const back = all[all.length / 2]!;
    expect(count(front, printBlue), 'the print faces the camera at the start').toBeGreaterThan(200);
    // The back keeps the product's own detail (its print, darker): a flat silhouette would have none.
    const darkBlue = (r: number, g: number, b: number) => b > 60 && b - r > 35 && b - g > 15;
    expect(count(back, darkBlue), 'the back shows the print, darkened').toBeGreaterThan(100);
    expect(count(back, printBlue), 'darker than the front').toBeLessThan(count(front, printBlue) / 2);
    const red = (r: number, g: number, b: number) => r > 120 && g < 60 && b < 60;
    const brightness = (frame: Buffer) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < frame.length; i += 3) {
        if (!red(frame[i]!, frame[i + 1]!, frame[i + 2]!)) continue;
        sum += frame[i]!;
        n++;
      }
      return sum / n;
    };
    // 60° into the turn (a sixth of the clip) the product is darker than facing the camera.
    expect(brightness(all[all.length / 6]!)).toBeLessThan(brightness(front) - 10);
  }, SLOW);

  it.each([
    ['9:16', { width: 180, height: 320 }],
    ['1:1', { width: 240, height: 240 }],
    ['16:9', { width: 320, height: 180 }],
  ])('turns in place in %s: every frame shows the product, its centre of mass on the frame’s centre line', async (_ratio, size) => {
    const file = await renderThroughS3({ prompt: '360 Spin', durationSeconds: 5, size }, `spin-centre-${size.width}x${size.height}`);
    const all = await frames(file, size);
    // What is not the backdrop (read at the top corners), above the corner label.
    const rows = Math.floor(size.height * 0.8);
    const offCentre: number[] = [];
    const shown: number[] = [];
    for (const frame of all) {
      const backdrop = [frame[0]!, frame[1]!, frame[2]!];
      let weight = 0;
      let sum = 0;
      for (let y = 0; y < rows; y++) {
        for (let x = 0; x < size.width; x++) {
          const i = (y * size.width + x) * 3;
          const distance = Math.abs(frame[i]! - backdrop[0]!) + Math.abs(frame[i + 1]! - backdrop[1]!) + Math.abs(frame[i + 2]! - backdrop[2]!);
          if (distance < 60) continue;
          weight++;
          sum += x + 0.5;
        }
      }
      shown.push(weight / (rows * size.width));
      offCentre.push(weight === 0 ? Infinity : Math.abs(sum / weight - size.width / 2) / size.width);
    }
    expect(Math.min(...shown), 'no frame is empty background').toBeGreaterThan(0.01);
    expect(Math.max(...offCentre), 'the product never slides sideways').toBeLessThan(0.04);
  }, SLOW);

  it('turns the subject of a scene (an on-model picture), whole, in 16:9: never the squashed frame', async () => {
    const onModel = await localOnModelImage.generate({
      product: { bytes: await tshirtPhoto(), mimeType: 'image/jpeg' },
      productType: 'clothing',
      model: { description: 'model, black hair', seed: 3 },
      cameraZoom: 'full-body',
      size: { width: 720, height: 1280 },
      aspectRatio: '9:16',
      promptEnhance: false,
    });
    const size = { width: 320, height: 180 };
    const file = await renderThroughS3({ prompt: '360 Spin', durationSeconds: 5, size }, 'spin-scene', Promise.resolve(onModel.bytes));
    const first = (await frames(file, size))[0]!;
    const hair = (r: number, g: number, b: number) => r < 50 && g < 50 && b < 50;
    // The head's hair covers about 20 pixels of this small frame; a cut-off head (the failure) leaves none.
    expect(count(first, hair), 'the head is in the frame').toBeGreaterThan(10);
    // The frame's corners are the studio, not the picture's own edges squeezed in.
    for (const [x, y] of [[2, 2], [size.width - 3, 2]] as const) {
      const i = (y * size.width + x) * 3;
      expect(Math.max(first[i]!, first[i + 1]!, first[i + 2]!) - Math.min(first[i]!, first[i + 1]!, first[i + 2]!)).toBeLessThan(20);
    }
  }, SLOW);
});
