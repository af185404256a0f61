// Renders a perfectly looping product clip: the product cut out of its photo, on a studio backdrop in the photo's own
// background colour, moved by a periodic motion preset (motion.ts), one frame at a time in JS (warp.ts) and piped
// as raw RGB into ffmpeg (libx264, yuv420p, faststart) at a constant 24 fps, so the duration is exact.
import { DELIVERY_FPS } from '../../media/normalize.js';
import { openH264Encoder } from '../../media/raw-video.js';
import type { Size } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import { cutOutProduct } from './cutout.js';
import { labelPlacement, renderLabel } from './label.js';
import { cyclesIn, MAX_MOTION_ZOOM, MOTIONS, poseAt, type MotionPreset } from './motion.js';
import { decodeRgba, openRgba, toRgba } from './raster.js';
import { drawLayer, toLayer, type Affine } from './warp.js';

/** At rest the product fits inside this share of the frame's width and height. */
const PRODUCT_FILL = 0.72;

export interface ClipRequest {
  image: Buffer;
  preset: MotionPreset;
  durationSeconds: number;
  size: Size;
}

export async function renderLoopingClip(request: ClipRequest, output: string): Promise<{ frames: number; cycles: number }> {
  const { preset, size } = request;
  const { width, height } = size;
  const frames = Math.round(request.durationSeconds * DELIVERY_FPS);
  const cycles = cyclesIn(preset, request.durationSeconds);
  const { product, background } = await cutOutProduct(await decodeRgba(request.image));
  const backdrop = await studioBackdrop(size, background ?? STUDIO_GREY).raw().toBuffer();
  // Prepared at the largest size the motion shows it, so the warp only ever shrinks it.
  const layer = toLayer(
    await toRgba(
      openRgba(product).resize({
        width: Math.round(width * PRODUCT_FILL * MAX_MOTION_ZOOM),
        height: Math.round(height * PRODUCT_FILL * MAX_MOTION_ZOOM),
        fit: 'inside',
        kernel: 'lanczos3',
      }),
    ),
  );
  const label = toLayer(renderLabel(width));
  const labelAt = labelPlacement(width, height);
  const labelTransform: Affine = { a: 1, b: 0, c: 0, d: 1, e: labelAt.left, f: labelAt.top };

  const { anchor } = MOTIONS[preset];
  const rest = 1 / MAX_MOTION_ZOOM;
  const anchorInLayer = { x: anchor.x * layer.width, y: anchor.y * layer.height };
  const anchorInFrame = {
    x: width / 2 + (anchor.x - 0.5) * layer.width * rest,
    y: height / 2 + (anchor.y - 0.5) * layer.height * rest,
  };

  const encoder = openH264Encoder(output, { width, height, pixelFormat: 'rgb24', fps: DELIVERY_FPS });
  try {
    for (let index = 0; index < frames; index++) {
      const pose = poseAt(preset, index, frames, cycles);
      const cos = Math.cos(pose.rotation);
      const sin = Math.sin(pose.rotation);
      const sx = pose.scaleX * rest;
      const sy = pose.scaleY * rest;
      const a = cos * sx;
      const b = -sin * sy;
      const c = sin * sx;
      const d = cos * sy;
      const frame = { data: Buffer.from(backdrop), width, height };
      drawLayer(frame, layer, {
        a,
        b,
        c,
        d,
        e: anchorInFrame.x + pose.shiftX * width - (a * anchorInLayer.x + b * anchorInLayer.y),
        f: anchorInFrame.y + pose.shiftY * height - (c * anchorInLayer.x + d * anchorInLayer.y),
      });
      drawLayer(frame, label, labelTransform);
      await encoder.write(frame.data);
    }
    await encoder.finish();
  } catch (error) {
    await encoder.abort();
    throw error;
  }
  return { frames, cycles };
}
