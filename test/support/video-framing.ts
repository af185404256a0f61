// What tests and bench/video-framing.ts measure on the preview engine's videos, frame by frame, as a seller would see
// them: where the model's head and the product are in each frame (their boxes, and how far each stays from the frame's
// edges), and how different two outputs of one order look (after the best alignment in time, forwards or backwards,
// so that the same clip started later or played backwards counts as the same clip).
import { labelPlacement } from '../../lambdas/providers/local-engine/label.js';
import { readFrames } from '../../lambdas/media/raw-video.js';
import { localOnModelImage } from '../../lambdas/providers/local-engine/index.js';
import type { Size } from '../../lambdas/providers/ports.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';

/** The model the sources show: black hair, so the head is the only near-black in the picture. */
export const SOURCE_MODEL = { description: 'model, black hair', seed: 3 };

/** An on-model photo of the red T-shirt fixture, from the preview engine (as a seller's Images → Make a video). */
export async function onModelSource(size: Size, cameraZoom: 'auto' | 'full-body' | 'mid-shot', aspectRatio: string): Promise<Buffer> {
  const picture = await localOnModelImage.generate({
    product: { bytes: await tshirtPhoto(), mimeType: 'image/jpeg' },
    productType: 'clothing',
    model: SOURCE_MODEL,
    cameraZoom,
    size,
    aspectRatio,
    promptEnhance: false,
  });
  return picture.bytes;
}

/** The hair of SOURCE_MODEL (#1d1a19), also when a turning product's back darkens it. */
export const isHair = (r: number, g: number, b: number) => r < 60 && g < 60 && b < 60;
/** The T-shirt's red, also darkened (a turning product's back keeps 62% of its light). */
export const isShirt = (r: number, g: number, b: number) => r > 90 && r > 2.2 * g && r > 2.2 * b;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number;
}

/** Pixels away from the nearest edge of the frame (0: the box touches it, so what it holds is cut). */
export function marginOf(box: Box, { width, height }: Size): number {
  return Math.min(box.left, box.top, width - 1 - box.right, height - 1 - box.bottom);
}

/** The box of the pixels that match, outside the corner mark. */
export function boxOf(frame: Buffer, { width, height }: Size, match: (r: number, g: number, b: number) => boolean): Box | undefined {
  const mark = labelPlacement(width, height);
  let left = width, top = height, right = -1, bottom = -1, pixels = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= mark.left && y >= mark.top) continue;
      const i = (y * width + x) * 3;
      if (!match(frame[i]!, frame[i + 1]!, frame[i + 2]!)) continue;
      pixels++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return pixels === 0 ? undefined : { left, top, right, bottom, pixels };
}

export interface Framing {
  frames: number;
  /** The smallest margin of the head's and of the product's box over every frame (−1: missing in some frame). */
  headMargin: number;
  productMargin: number;
  /** The frame where each was closest to an edge. */
  headWorstFrame: number;
  productWorstFrame: number;
  /** The fewest head and product pixels in any frame. */
  headPixels: number;
  productPixels: number;
}

/** Where the head and the product are in every frame of an RGB video of this size. */
export async function measureFraming(file: string, size: Size): Promise<Framing> {
  const result: Framing = { frames: 0, headMargin: Infinity, productMargin: Infinity, headWorstFrame: -1, productWorstFrame: -1, headPixels: Infinity, productPixels: Infinity };
  for await (const frame of readFrames(file, { ...size, pixelFormat: 'rgb24' })) {
    const index = result.frames++;
    for (const [part, match] of [['head', isHair], ['product', isShirt]] as const) {
      const box = boxOf(frame, size, match);
      const margin = box ? marginOf(box, size) : -1;
      if (margin < result[`${part}Margin`]) {
        result[`${part}Margin`] = margin;
        result[`${part}WorstFrame`] = index;
      }
      result[`${part}Pixels`] = Math.min(result[`${part}Pixels`], box?.pixels ?? 0);
    }
  }
  return result;
}

/** Small grey frames (this many pixels wide) of a video, for comparing outputs. */
export async function greyFrames(file: string, size: Size, width = 64): Promise<Buffer[]> {
  const analysis = { width, height: Math.max(2, 2 * Math.round((width * size.height) / size.width / 2)), pixelFormat: 'gray' as const };
  const frames: Buffer[] = [];
  for await (const frame of readFrames(file, analysis)) frames.push(frame);
  return frames;
}

function meanAbsoluteDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/**
 * How different two looping clips of the same length look: the mean grey-level difference (0–255) of their frames,
 * after the shift in time, forwards or backwards, that makes them most alike. The same loop started half-way, or played
 * backwards, measures about 0 (codec noise); a clip seen through another camera path measures more.
 */
export function clipDistance(a: Buffer[], b: Buffer[]): number {
  const n = Math.min(a.length, b.length);
  let best = Infinity;
  for (const backwards of [false, true]) {
    for (let shift = 0; shift < n; shift++) {
      let sum = 0;
      for (let t = 0; t < n && sum / n < best; t++) {
        const u = backwards ? (shift - t + n) % n : (shift + t) % n;
        sum += meanAbsoluteDifference(a[t]!, b[u]!);
      }
      best = Math.min(best, sum / n);
    }
  }
  return best;
}
