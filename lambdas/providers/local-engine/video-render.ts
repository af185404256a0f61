// Renders a perfectly looping clip from one picture, moved by a periodic motion preset (motion.ts), one frame at a
// time in JS (warp.ts), piped as raw RGB into ffmpeg (libx264, yuv420p, faststart) at a constant 24 fps, so the
// duration is exact. Two kinds of picture:
// - a product photo on a plain background: the product is cut out and moves over a studio backdrop in the photo's
//   own background colour;
// - any other picture (a scene, e.g. an on-model picture): the whole picture moves like a camera would, enlarged
//   to cover the frame in every pose (only the turntable's narrow poses show the studio behind it).
import { DELIVERY_FPS } from '../../media/normalize.js';
import { openH264Encoder } from '../../media/raw-video.js';
import type { Size } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import type { Rgb } from './colours.js';
import { cutOutProduct, hasPlainBackground } from './cutout.js';
import { labelPlacement, renderLabel } from './label.js';
import { cyclesIn, MAX_MOTION_ZOOM, motionStyle, MOTIONS, poseAt, type MotionPreset } from './motion.js';
import { decodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';
import { drawLayer, toLayer, type Affine, type Layer } from './warp.js';

/** At rest a cut-out product fits inside this share of the frame's width and height. */
const PRODUCT_FILL = 0.72;
/**
 * At rest a whole picture covers this multiple of the frame, so the widest swing (Pivot's 3.5° about the centre,
 * Catwalk's 2.5% sway plus 1.5°) never shows its edges.
 */
const PICTURE_COVER = 1.2;
/** Larger source pictures are shrunk to this first: the largest layer (a 16:9 scene) is about 1630 px wide. */
const SOURCE_MAX_SIDE = 2048;

export interface ClipRequest {
  image: Buffer;
  preset: MotionPreset;
  durationSeconds: number;
  size: Size;
  /** Which output of the job this is (0-based): each renders its own variant of the preset (motion.ts). */
  variant?: number;
}

interface Scene {
  /** Prepared at the largest size the motion shows it, so the warp only ever shrinks it. */
  layer: Layer;
  /** The point the motion turns and scales around, as fractions of the layer's width and height. */
  anchor: { x: number; y: number };
  backdrop: Rgb;
}

async function productScene(picture: RgbaImage, preset: MotionPreset, { width, height }: Size): Promise<Scene> {
  const { product, background } = await cutOutProduct(picture);
  const fitted = openRgba(product).resize({
    width: Math.round(width * PRODUCT_FILL * MAX_MOTION_ZOOM),
    height: Math.round(height * PRODUCT_FILL * MAX_MOTION_ZOOM),
    fit: 'inside',
    kernel: 'lanczos3',
  });
  return { layer: toLayer(await toRgba(fitted)), anchor: MOTIONS[preset].anchor, backdrop: background ?? STUDIO_GREY };
}

async function pictureScene(picture: RgbaImage, { width, height }: Size): Promise<Scene> {
  const covering = openRgba(picture).resize({
    width: Math.round(width * PICTURE_COVER * MAX_MOTION_ZOOM),
    height: Math.round(height * PICTURE_COVER * MAX_MOTION_ZOOM),
    fit: 'cover',
    kernel: 'lanczos3',
  });
  return { layer: toLayer(await toRgba(covering)), anchor: { x: 0.5, y: 0.5 }, backdrop: STUDIO_GREY };
}

export async function renderLoopingClip(request: ClipRequest, output: string): Promise<{ frames: number; cycles: number }> {
  const { preset, size } = request;
  const { width, height } = size;
  const frames = Math.round(request.durationSeconds * DELIVERY_FPS);
  const style = motionStyle(request.variant ?? 0);
  const cycles = cyclesIn(preset, request.durationSeconds, style);
  const picture = await decodeRgba(request.image, SOURCE_MAX_SIDE);
  const { layer, anchor, backdrop: backdropColour } = hasPlainBackground(picture)
    ? await productScene(picture, preset, size)
    : await pictureScene(picture, size);
  const backdrop = await studioBackdrop(size, backdropColour).raw().toBuffer();
  const label = toLayer(renderLabel(width));
  const labelAt = labelPlacement(width, height);
  const labelTransform: Affine = { a: 1, b: 0, c: 0, d: 1, e: labelAt.left, f: labelAt.top };

  const rest = 1 / MAX_MOTION_ZOOM;
  const anchorInLayer = { x: anchor.x * layer.width, y: anchor.y * layer.height };
  const anchorInFrame = {
    x: width / 2 + (anchor.x - 0.5) * layer.width * rest,
    y: height / 2 + (anchor.y - 0.5) * layer.height * rest,
  };

  const encoder = openH264Encoder(output, { width, height, pixelFormat: 'rgb24', fps: DELIVERY_FPS });
  try {
    for (let index = 0; index < frames; index++) {
      const pose = poseAt(preset, index, frames, cycles, style);
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
