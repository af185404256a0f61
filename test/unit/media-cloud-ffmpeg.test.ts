// The ffmpeg and ffprobe of the cloud's media layer (static builds from npm, lib/media-binaries.ts), run here exactly
// as staged for the layer: they have what lambdas/media uses, and the finalize step's helpers deliver an exact,
// sealed loop and a poster with them. Skipped only where npm does not install the packages (not linux-x64).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isExactly } from '../../lambdas/domain/video/finalize.js';
import { MAX_SEAM_SCORE, normalizeVideo, probeVideo, sealLoop, thumbnail } from '../../lambdas/media/index.js';
import { runTool } from '../../lambdas/media/tools.js';
import { installedMediaBinaries, MEDIA_PACKAGES, stageMediaBinaries, type StagedMediaBinaries } from '../../lib/media-binaries.js';
import { panClip } from '../fixtures/media-clips.js';

const SLOW = 120_000;
const installed = installedMediaBinaries();
const names = (listing: Buffer) => new Set(listing.toString('utf8').split('\n').map((line) => line.trim().split(/\s+/)[1]).filter(Boolean));

describe('staging the media layer', () => {
  it('fails naming both npm packages where they are not installed', () => {
    expect(() => stageMediaBinaries(() => undefined)).toThrow(MEDIA_PACKAGES.ffmpeg);
    expect(() => stageMediaBinaries(() => undefined)).toThrow(MEDIA_PACKAGES.ffprobe);
  });
});

describe.skipIf(!installed)('the media layer ffmpeg (linux-x64 static builds from npm)', () => {
  let staged: StagedMediaBinaries;
  let dir: string;
  const saved = { FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH };
  beforeAll(async () => {
    staged = stageMediaBinaries();
    process.env.FFMPEG_PATH = staged.paths.ffmpeg;
    process.env.FFPROBE_PATH = staged.paths.ffprobe;
    dir = await mkdtemp(join(tmpdir(), 'media-cloud-'));
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('is staged as bin/ffmpeg and bin/ffprobe, executable by anyone, and is what runs', async () => {
    expect(staged.paths).toEqual({ ffmpeg: join(staged.directory, 'bin', 'ffmpeg'), ffprobe: join(staged.directory, 'bin', 'ffprobe') });
    expect((await runTool('ffmpeg', ['-version'])).toString('utf8')).toMatch(/^ffmpeg version \S+-static/);
    expect((await runTool('ffprobe', ['-version'])).toString('utf8')).toMatch(/^ffprobe version \S+-static/);
  });

  it('has the filters, encoders, formats and options lambdas/media passes', async () => {
    const filters = names(await runTool('ffmpeg', ['-filters']));
    for (const filter of ['fps', 'scale', 'crop', 'setsar', 'format']) expect(filters, filter).toContain(filter);
    const encoders = names(await runTool('ffmpeg', ['-encoders']));
    for (const encoder of ['libx264', 'mjpeg', 'png', 'rawvideo']) expect(encoders, encoder).toContain(encoder);
    const formats = (await runTool('ffmpeg', ['-formats'])).toString('utf8');
    for (const format of ['mp4', 'image2', 'image2pipe', 'rawvideo', 'concat']) expect(formats, format).toMatch(new RegExp(`\\s${format}\\s`));
    const help = (await runTool('ffmpeg', ['-h', 'full'])).toString('utf8');
    for (const option of ['-vsync', '-sseof', '-stream_loop', '-update', 'faststart']) expect(help, option).toContain(option);
  });

  it('normalizes a clip to the exact duration and size, seals its loop and makes its poster', async () => {
    const source = await panClip(dir);
    const target = { durationSeconds: 8, size: { width: 360, height: 640 } };
    const normalized = await normalizeVideo(source, target, join(dir, 'normalized.mp4'));
    expect(await probeVideo(normalized)).toEqual({ durationSeconds: 8, width: 360, height: 640, codec: 'h264', pixelFormat: 'yuv420p', frames: 192, fps: 24, faststart: true });

    const sealed = await sealLoop(normalized, join(dir, 'sealed.mp4'));
    expect(sealed.originalSeamScore).toBeGreaterThan(MAX_SEAM_SCORE);
    expect(sealed.repaired).toBe(true);
    expect(sealed.seamScore).toBeLessThanOrEqual(MAX_SEAM_SCORE);
    const delivered = await probeVideo(sealed.file);
    expect(delivered).toMatchObject({ durationSeconds: 8, width: 360, height: 640, frames: 192 });
    expect(isExactly(delivered, target)).toBe(true);

    const poster = await thumbnail(sealed.file);
    expect(poster.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await sharp(poster.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 360, height: 640 });
  }, SLOW);
});
