// Normalizing a provider's footage never cuts what matters: a clip longer than ordered is retimed, so its closing
// frames (where an Omni clip returns to the product) are delivered; a clip of another ratio (Omni's 9:16 for a 1:1 order)
// is fitted whole and padded, so the top and bottom of the picture stay in the frame.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H264_MP4_OUTPUT_ARGS, runTool } from '../../lambdas/media/tools.js';
import { normalizeVideo, probeVideo } from '../../lambdas/media/index.js';

const SLOW = 90_000;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-retime-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function lavfi(name: string, source: string): Promise<string> {
  const file = join(dir, name);
  await runTool('ffmpeg', ['-y', '-f', 'lavfi', '-i', source, ...H264_MP4_OUTPUT_ARGS, file]);
  return file;
}

/** The share of clearly red pixels in a frame of the video (`-sseof`: seconds from its end). */
async function redShare(video: string, fromEnd: number): Promise<number> {
  const frame = join(dir, `frame-${Math.random().toString(36).slice(2)}.png`);
  await runTool('ffmpeg', ['-y', '-sseof', String(-fromEnd), '-i', video, '-frames:v', '1', frame]);
  const { data, info } = await sharp(await readFile(frame)).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 180 && data[i + 1]! < 80 && data[i + 2]! < 80) red++;
  return red / (info.width * info.height);
}

describe('normalizeVideo keeps what a trim or a crop would cut', () => {
  it('retimes a 6 s clip to exactly 5 s: the clip’s closing half second is delivered', async () => {
    // Blue, and red only in the last half second: a trim to 5 s would end blue.
    const clip = await lavfi('closing-red.mp4', "color=c=blue:s=180x320:r=24:d=6,drawbox=x=0:y=0:w=iw:h=ih:color=red:t=fill:enable='gte(t,5.5)'");
    const output = await normalizeVideo(clip, { durationSeconds: 5, size: { width: 720, height: 1280 } }, join(dir, 'retimed.mp4'));
    expect(await probeVideo(output)).toMatchObject({ frames: 120, durationSeconds: 5, width: 720, height: 1280 });
    expect(await redShare(output, 0.1)).toBeGreaterThan(0.9);
  }, SLOW);

  it('pads a 9:16 clip into a 1:1 frame: a band along its top edge stays in the picture', async () => {
    const clip = await lavfi('top-band.mp4', 'color=c=0x808080:s=180x320:r=24:d=2,drawbox=x=0:y=0:w=iw:h=24:color=red:t=fill');
    const output = await normalizeVideo(clip, { durationSeconds: 2, size: { width: 720, height: 720 } }, join(dir, 'padded.mp4'));
    expect(await probeVideo(output)).toMatchObject({ frames: 48, width: 720, height: 720 });
    // The band is 24/320 of the clip's height, fitted whole into 720 px: about 54 px × 405 px of red.
    expect(await redShare(output, 0.5)).toBeGreaterThan(0.02);
  }, SLOW);
});
