// Separating the product from a plain photo background, without AI: the background is the colour of the top-left
// pixel (as sharp's `trim` assumes), and it is keyed out only where it touches the image border, so product areas of
// a similar colour inside the product's outline stay.
import { ProviderError } from '../ports.js';
import type { Rgb } from './colours.js';
import { openRgba, toRgba, type RgbaImage } from './raster.js';

/** Colour distance (largest channel difference, 0–255) up to which a pixel is pure background … */
const KEY_BACKGROUND = 24;
/** … and from which it is pure product; in between, a soft edge. */
const KEY_PRODUCT = 56;

/** A photo has a plain background when at least this share of its border is within KEY_BACKGROUND of it. */
const PLAIN_BORDER_SHARE = 0.8;

/** The photo's background colour; undefined when the top-left pixel is transparent (an already cut-out PNG). */
function backgroundColour(image: RgbaImage): Rgb | undefined {
  const [r, g, b, a] = image.data;
  return a! < 128 ? undefined : { r: r!, g: g!, b: b! };
}

function distanceFrom(background: Rgb | undefined, data: Buffer, i: number): number {
  const alpha = data[i + 3]!;
  if (!background) return alpha;
  return Math.min(
    alpha,
    Math.max(Math.abs(data[i]! - background.r), Math.abs(data[i + 1]! - background.g), Math.abs(data[i + 2]! - background.b)),
  );
}

/** Whether the product stands on a plain background (a product photo) rather than in a full picture (a scene). */
export function hasPlainBackground(image: RgbaImage): boolean {
  const { data, width, height } = image;
  const background = backgroundColour(image);
  let plain = 0;
  let border = 0;
  const count = (x: number, y: number) => {
    border++;
    if (distanceFrom(background, data, (y * width + x) * 4) < KEY_BACKGROUND) plain++;
  };
  for (let x = 0; x < width; x++) {
    count(x, 0);
    count(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    count(0, y);
    count(width - 1, y);
  }
  return plain >= PLAIN_BORDER_SHARE * border;
}

/**
 * Product opacity per pixel (0 = background, 255 = product): pixels close to the background colour that are
 * connected to the border through such pixels fade out; everything else keeps its own alpha.
 */
export function productAlpha(image: RgbaImage, background = backgroundColour(image)): Uint8Array {
  const { data, width, height } = image;
  const count = width * height;
  const distance = new Uint8Array(count);
  for (let p = 0; p < count; p++) distance[p] = distanceFrom(background, data, p * 4);
  const alpha = new Uint8Array(count);
  for (let p = 0, i = 3; p < count; p++, i += 4) alpha[p] = data[i]!;
  const visited = new Uint8Array(count);
  const stack = new Int32Array(count);
  let top = 0;
  const visit = (p: number) => {
    if (visited[p] || distance[p]! >= KEY_PRODUCT) return;
    visited[p] = 1;
    stack[top++] = p;
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  while (top > 0) {
    const p = stack[--top]!;
    const soft = Math.max(0, distance[p]! - KEY_BACKGROUND) / (KEY_PRODUCT - KEY_BACKGROUND);
    alpha[p] = Math.round(alpha[p]! * soft);
    const x = p % width;
    if (x > 0) visit(p - 1);
    if (x < width - 1) visit(p + 1);
    if (p >= width) visit(p - width);
    if (p < count - width) visit(p + width);
  }
  return alpha;
}

export interface Cutout {
  /** The product trimmed to its bounding box, background transparent. */
  product: RgbaImage;
  /** The photo's background colour, when it had one. */
  background: Rgb | undefined;
}

/** Cuts away the uniform background around the product (sharp `trim`, from the top-left pixel's colour). */
export function trimToProduct(image: RgbaImage): Promise<RgbaImage> {
  return toRgba(openRgba(image).trim({ threshold: KEY_BACKGROUND }));
}

/** Trims the uniform background around the product, then keys out what is left of it. */
export async function cutOutProduct(image: RgbaImage): Promise<Cutout> {
  const background = backgroundColour(image);
  const trimmed = await trimToProduct(image);
  const alpha = productAlpha(trimmed, background);
  if (!alpha.some((value) => value > 0)) {
    throw new ProviderError('unsupported', 'No product found: the image looks like a plain background.');
  }
  for (let p = 0; p < alpha.length; p++) trimmed.data[p * 4 + 3] = alpha[p]!;
  return { product: trimmed, background };
}
