// Renders a perfectly looping clip from one picture, moved by a periodic motion preset (motion.ts), one frame at a
// time in JS (warp.ts), piped as raw RGB into ffmpeg (libx264, yuv420p, faststart) at a constant 24 fps, so the
// duration is exact. Two kinds of picture:
// - a product photo on a plain background: the product is cut out and moves over a studio backdrop in the photo's
//   own background colour;
// - any other picture (a scene, e.g. an on-model picture): the whole picture moves like a camera would, enlarged
//   to cover the frame in every pose.
// 360 Spin always turns a cut-out product (from a scene, its subject cut from the studio around it), never the whole
// frame, about the product's own upright axis (its centre of mass) held at the frame's centre: its width follows
// cos(angle) down to a side view's, it is shaded as it turns edge-on, a highlight sweeps across it, and the back half
// of the turn shows the product's back: the cut-out mirrored and darkened, as light from the front would leave it. In
// 16:9 and 1:1 the product fills the frame's height as it fills a 9:16 frame's width. Every term is periodic in the
// clip, so the loop stays exact.
import { DELIVERY_FPS } from '../../media/normalize.js';
import { openH264Encoder } from '../../media/raw-video.js';
import type { Size } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import type { Rgb } from './colours.js';
import { cutOutProduct, hasPlainBackground, type Cutout } from './cutout.js';
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

/** A scene's subject is spun on its own only when it covers less than this share of the picture. */
const SUBJECT_MAX_SHARE = 0.8;
/** 360 Spin: the product's light at edge-on (1 facing the camera), and the highlight's strength and width. */
const SPIN_SHADE = 0.7;
const SPIN_HIGHLIGHT = { gain: 0.3, width: 0.1 };
/** 360 Spin: how much light the product's back keeps (it faces away from the studio's key light). */
const SPIN_BACK_LIGHT = 0.62;

interface Scene {
  /** Prepared at the largest size the motion shows it, so the warp only ever shrinks it. */
  layer: Layer;
  /** The product's back (the cut-out darkened; the turn mirrors it), for the back half of a turn. */
  back?: Layer;
  /** The point the motion turns and scales around, as fractions of the layer's width and height. */
  anchor: { x: number; y: number };
  backdrop: Rgb;
}

async function productScene({ product, background }: Cutout, preset: MotionPreset, { width, height }: Size): Promise<Scene> {
  const fitted = await toRgba(
    openRgba(product).resize({
      width: Math.round(width * PRODUCT_FILL * MAX_MOTION_ZOOM),
      height: Math.round(height * PRODUCT_FILL * MAX_MOTION_ZOOM),
      fit: 'inside',
      kernel: 'lanczos3',
    }),
  );
  const spin = preset === '360 Spin';
  return {
    layer: toLayer(fitted),
    back: spin ? toLayer(darkened(fitted, SPIN_BACK_LIGHT)) : undefined,
    // A turntable turns about the product's own axis, wherever the cut-out's box leaves it.
    anchor: spin ? { x: uprightAxis(fitted), y: 0.5 } : MOTIONS[preset].anchor,
    backdrop: background ?? STUDIO_GREY,
  };
}

/** The product's upright axis: the horizontal centre of its opaque pixels, as a fraction of the image's width. */
export function uprightAxis(image: RgbaImage): number {
  let weight = 0;
  let sum = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const alpha = image.data[(y * image.width + x) * 4 + 3]!;
      weight += alpha;
      sum += alpha * (x + 0.5);
    }
  }
  return weight === 0 ? 0.5 : sum / weight / image.width;
}

/** The image with its colours scaled by `light` (alpha kept). */
function darkened(image: RgbaImage, light: number): RgbaImage {
  const data = Buffer.from(image.data);
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) data[i + c] = Math.round(data[i + c]! * light);
  return { ...image, data };
}

/** A scene's subject for a turntable: cut from the studio around it, when there is a subject to cut. */
async function sceneSubject(picture: RgbaImage): Promise<Cutout | undefined> {
  const cutout = await cutOutProduct(picture).catch(() => undefined);
  if (!cutout || cutout.product.width * cutout.product.height > SUBJECT_MAX_SHARE * picture.width * picture.height) return undefined;
  return cutout;
}

/** The light of each layer column for a turn at `phase`: shaded as it turns edge-on, a highlight sweeping across. */
function spinLight(layer: Layer, phase: number): Float32Array {
  const facing = Math.abs(Math.cos(phase));
  const shade = SPIN_SHADE + (1 - SPIN_SHADE) * facing;
  const centre = (0.5 + 0.45 * Math.sin(phase)) * layer.width;
  const spread = SPIN_HIGHLIGHT.width * layer.width;
  const light = new Float32Array(layer.width);
  for (let u = 0; u < layer.width; u++) light[u] = shade + SPIN_HIGHLIGHT.gain * facing * Math.exp(-(((u - centre) / spread) ** 2));
  return light;
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
  const subject = hasPlainBackground(picture) ? await cutOutProduct(picture) : preset === '360 Spin' ? await sceneSubject(picture) : undefined;
  const { layer, back, anchor, backdrop: backdropColour } = subject ? await productScene(subject, preset, size) : await pictureScene(picture, size);
  const backdrop = await studioBackdrop(size, backdropColour).raw().toBuffer();
  const label = toLayer(renderLabel(width));
  const labelAt = labelPlacement(width, height);
  const labelTransform: Affine = { a: 1, b: 0, c: 0, d: 1, e: labelAt.left, f: labelAt.top };

  const rest = 1 / MAX_MOTION_ZOOM;
  const anchorInLayer = { x: anchor.x * layer.width, y: anchor.y * layer.height };
  // The anchor sits where it would at rest; a turning product's axis sits at the frame's centre.
  const anchorInFrame = {
    x: back !== undefined ? width / 2 : width / 2 + (anchor.x - 0.5) * layer.width * rest,
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
      // The back half of a turn (scaleX < 0) shows the product's back; the light follows the turn.
      const turning = back !== undefined;
      const phase = ((2 * Math.PI * index) / frames) * cycles;
      drawLayer(
        frame,
        turning && pose.scaleX < 0 ? back : layer,
        {
          a,
          b,
          c,
          d,
          e: anchorInFrame.x + pose.shiftX * width - (a * anchorInLayer.x + b * anchorInLayer.y),
          f: anchorInFrame.y + pose.shiftY * height - (c * anchorInLayer.x + d * anchorInLayer.y),
        },
        turning ? spinLight(layer, phase) : undefined,
      );
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
