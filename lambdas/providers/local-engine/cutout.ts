// Separating the product from a plain or near-plain photo background, without AI (test/fixtures/products holds
// pictures with hand-made masks; bench/cutout.ts measures the agreement):
// - the background is modelled from the image border as a colour plane (a linear gradient per channel, fitted to the
//   border pixels near their median), so studio sweeps and lit walls count as plain;
// - a pixel is background when it is reached from the border through pixels close to that model; the product's own
//   shadow (the background, darker, with its hue) is reached too, but only by small steps: a shadow fades in, a
//   product's edge is a jump;
// - inside the product, a region of exactly the background's colour stays product (a white print on a T-shirt
//   photographed on white) unless the product is jewelry, where it is a hole (the inside of a ring);
// - the edge is feathered: along the border alpha is each pixel's coverage (its colour distance over the product's),
//   and the background's share is taken out of the edge colours;
// - clothing loses a hanger hook: thin rows above the garment.
import { ProviderError } from '../ports.js';
import type { Rgb } from './colours.js';
import { openRgba, toRgba, type RgbaImage } from './raster.js';
import { pieces, type CutoutKind } from './masks.js';
import { networkCutout } from './network-cutout.js';
import { SegmentationUnavailable } from './segmentation.js';

export type { CutoutKind } from './masks.js';

/** Colour distance (Euclidean over RGB, 0–441) up to which a pixel is pure background … */
const KEY_BACKGROUND = 26;
/** … and from which it is pure product; in between, a soft edge. */
const KEY_PRODUCT = 60;
/** A photo has a plain background when at least this share of its border is close to the border's median colour (see cutoutMethodFor). */
const PLAIN_BORDER_SHARE = 0.96;
/** A shadow is the background darkened to at least this share of its light … */
const SHADOW_DARKEST = 0.3;
/** … with the background's hue (chromaticity off by at most this) … */
const SHADOW_HUE = 0.045;
/** … and reached from the background in steps no larger than this (colour distance between neighbours). */
const SHADOW_STEP = 9;
/** Rows narrower than this share of the garment's widest row, above it, are a hanger's hook. */
const HOOK_WIDTH_SHARE = 0.14;
/** Pieces of product smaller than this share of the largest piece are dust, not product. */
const SPECK_SHARE = 0.004;
/** Strokes thinner than about twice this share of the picture's short side (a hanger's bar) are not garment. */
const BAR_RADIUS_SHARE = 0.02;
/** The share of the garment's height from its top where a hanger's bar can show. */
const BAR_ROWS_SHARE = 0.25;


/** The background as a colour plane: colour(x, y) = base + dx·x + dy·y per channel. */
export interface BackgroundModel {
  base: [number, number, number];
  dx: [number, number, number];
  dy: [number, number, number];
}

function borderPixels(image: RgbaImage): number[] {
  const { width, height } = image;
  const pixels: number[] = [];
  for (let x = 0; x < width; x++) pixels.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) pixels.push(y * width, y * width + width - 1);
  return pixels;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Least-squares plane through (x, y, value) samples; falls back to a constant when degenerate. */
function fitPlane(xs: number[], ys: number[], values: number[]): { base: number; dx: number; dy: number } {
  const n = values.length;
  let sx = 0, sy = 0, sv = 0, sxx = 0, syy = 0, sxy = 0, sxv = 0, syv = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!, y = ys[i]!, v = values[i]!;
    sx += x; sy += y; sv += v; sxx += x * x; syy += y * y; sxy += x * y; sxv += x * v; syv += y * v;
  }
  // Normal equations of v = b + dx·x + dy·y, solved by Cramer's rule.
  const m = [[n, sx, sy], [sx, sxx, sxy], [sy, sxy, syy]];
  const r = [sv, sxv, syv];
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) -
    a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) +
    a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const d = det(m);
  if (n === 0) return { base: 0, dx: 0, dy: 0 };
  if (Math.abs(d) < 1e-6) return { base: sv / n, dx: 0, dy: 0 };
  const column = (k: number) => det(m.map((row, i) => row.map((value, j) => (j === k ? r[i]! : value))));
  return { base: column(0) / d, dx: column(1) / d, dy: column(2) / d };
}

/** The background model, or undefined when the border is transparent (an already cut-out PNG). */
export function backgroundModel(image: RgbaImage): BackgroundModel | undefined {
  const { data, width } = image;
  const border = borderPixels(image);
  const opaque = border.filter((p) => data[p * 4 + 3]! >= 128);
  if (opaque.length < border.length / 2) return undefined;
  const mid = [0, 1, 2].map((c) => median(opaque.map((p) => data[p * 4 + c]!)));
  // Fit to the border pixels near the median: the product touching the border does not bend the plane.
  const near = opaque.filter((p) => Math.hypot(data[p * 4]! - mid[0]!, data[p * 4 + 1]! - mid[1]!, data[p * 4 + 2]! - mid[2]!) < 40);
  const used = near.length >= opaque.length / 4 ? near : opaque;
  const xs = used.map((p) => p % width);
  const ys = used.map((p) => Math.floor(p / width));
  const planes = [0, 1, 2].map((c) => fitPlane(xs, ys, used.map((p) => data[p * 4 + c]!)));
  return {
    base: [planes[0]!.base, planes[1]!.base, planes[2]!.base],
    dx: [planes[0]!.dx, planes[1]!.dx, planes[2]!.dx],
    dy: [planes[0]!.dy, planes[1]!.dy, planes[2]!.dy],
  };
}

/** The model's colour at the top-left corner (the photo's background colour as one value). */
export function backgroundColourOf(model: BackgroundModel | undefined): Rgb | undefined {
  if (!model) return undefined;
  const channel = (c: number) => Math.max(0, Math.min(255, Math.round(model.base[c]!)));
  return { r: channel(0), g: channel(1), b: channel(2) };
}

interface Distances {
  /** Colour distance of each pixel from the background model (0 for transparent pixels: they are background). */
  distance: Float32Array;
  /** Whether each pixel looks like the background in shadow. */
  shadowLike: Uint8Array;
}

function distances(image: RgbaImage, model: BackgroundModel | undefined): Distances {
  const { data, width, height } = image;
  const count = width * height;
  const distance = new Float32Array(count);
  const shadowLike = new Uint8Array(count);
  for (let p = 0; p < count; p++) {
    const i = p * 4;
    const alpha = data[i + 3]!;
    if (!model) {
      distance[p] = alpha;
      continue;
    }
    const x = p % width;
    const y = (p - x) / width;
    const br = model.base[0] + model.dx[0] * x + model.dy[0] * y;
    const bg = model.base[1] + model.dx[1] * x + model.dy[1] * y;
    const bb = model.base[2] + model.dx[2] * x + model.dy[2] * y;
    const r = data[i]!, g = data[i + 1]!, b = data[i + 2]!;
    distance[p] = alpha < 128 ? 0 : Math.hypot(r - br, g - bg, b - bb);
    const light = r + g + b;
    const backgroundLight = br + bg + bb;
    if (light > 0 && backgroundLight > 0 && light <= backgroundLight + 6 && light >= SHADOW_DARKEST * backgroundLight) {
      const hue = Math.abs(r / light - br / backgroundLight) + Math.abs(g / light - bg / backgroundLight) + Math.abs(b / light - bb / backgroundLight);
      shadowLike[p] = hue <= SHADOW_HUE ? 1 : 0;
    }
  }
  return { distance, shadowLike };
}

function colourStep(data: Buffer, p: number, q: number): number {
  const i = p * 4;
  const j = q * 4;
  return Math.hypot(data[i]! - data[j]!, data[i + 1]! - data[j + 1]!, data[i + 2]! - data[j + 2]!);
}

/** Background reached from the border: 1 = background (or shadow), 0 = product. */
function floodBackground(image: RgbaImage, { distance, shadowLike }: Distances): Uint8Array {
  const { data, width } = image;
  const count = data.length / 4;
  const background = new Uint8Array(count);
  const stack = new Int32Array(count);
  let top = 0;
  // A shadow pixel is smooth all round: on a product's anti-aliased edge, steps along the edge can be small, but the
  // step across it never is.
  const smooth = (p: number) => {
    const x = p % width;
    return (
      (x === 0 || colourStep(data, p, p - 1) <= SHADOW_STEP) &&
      (x === width - 1 || colourStep(data, p, p + 1) <= SHADOW_STEP) &&
      (p < width || colourStep(data, p, p - width) <= SHADOW_STEP) &&
      (p >= count - width || colourStep(data, p, p + width) <= SHADOW_STEP)
    );
  };
  const visit = (p: number, from: number) => {
    if (background[p]) return;
    const plain = distance[p]! < KEY_PRODUCT;
    const shadow = !plain && shadowLike[p] === 1 && from >= 0 && smooth(p);
    if (!plain && !shadow) return;
    background[p] = 1;
    stack[top++] = p;
  };
  for (const p of borderPixels(image)) visit(p, -1);
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % width;
    if (x > 0) visit(p - 1, p);
    if (x < width - 1) visit(p + 1, p);
    if (p >= width) visit(p - width, p);
    if (p < count - width) visit(p + width, p);
  }
  return background;
}


/**
 * Drops a hanger hook: from the top, the rows whose product extent is a small share of the widest row; then, just
 * below, the hook's stem where it overlaps the garment's top (pixels of the hook's colour under its columns).
 */
function dropHangerHook(image: RgbaImage, product: Uint8Array): void {
  const { data, width, height } = image;
  const extents: Array<{ left: number; right: number }> = [];
  for (let y = 0; y < height; y++) {
    let left = -1;
    let right = -1;
    for (let x = 0; x < width; x++) {
      if (!product[y * width + x]) continue;
      if (left < 0) left = x;
      right = x;
    }
    extents.push({ left, right });
  }
  const extent = (y: number) => (extents[y]!.left < 0 ? 0 : extents[y]!.right - extents[y]!.left + 1);
  let widest = 0;
  for (let y = 0; y < height; y++) widest = Math.max(widest, extent(y));
  let y = 0;
  while (y < height && extent(y) === 0) y++;
  const hookStart = y;
  while (y < height && extent(y) < HOOK_WIDTH_SHARE * widest) y++;
  // A hook is above the garment, never most of it.
  if (y === hookStart || y > height * 0.45) return;
  const stem = extents[y - 1]!;
  const colour = [0, 0, 0];
  let count = 0;
  for (let p = hookStart * width; p < y * width; p++) {
    if (!product[p]) continue;
    for (let c = 0; c < 3; c++) colour[c]! += data[p * 4 + c]!;
    count++;
  }
  product.fill(0, 0, y * width);
  if (count === 0) return;
  const hook = colour.map((sum) => sum / count);
  const overlap = Math.ceil(height * 0.03);
  for (let row = y; row < Math.min(height, y + overlap); row++) {
    for (let x = Math.max(0, stem.left - 2); x <= Math.min(width - 1, stem.right + 2); x++) {
      const p = row * width + x;
      const i = p * 4;
      if (Math.hypot(data[i]! - hook[0]!, data[i + 1]! - hook[1]!, data[i + 2]! - hook[2]!) < 40) product[p] = 0;
    }
  }
}

/** Counts of product pixels in every (2r+1)² square, by a summed-area table: O(pixels) whatever the radius. */
function windowCounts(mask: Uint8Array, width: number, height: number, radius: number): (x: number, y: number) => number {
  const sums = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += mask[y * width + x] ? 1 : 0;
      sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1]! + row;
    }
  }
  return (x, y) => {
    const left = Math.max(0, x - radius);
    const right = Math.min(width, x + radius + 1);
    const top = Math.max(0, y - radius);
    const bottom = Math.min(height, y + radius + 1);
    return sums[bottom * (width + 1) + right]! - sums[top * (width + 1) + right]! - sums[bottom * (width + 1) + left]! + sums[top * (width + 1) + left]!;
  };
}

/**
 * Drops a hanger's bar where its ends stick out beside the garment's shoulders. The bar is a thin stroke: a
 * morphological opening (erode, then dilate, by a square of BAR_RADIUS_SHARE of the picture's short side) removes it
 * and keeps the garment's body. In the garment's top rows, the pixels left or right of the opened garment's extent are
 * the bar's ends; elsewhere nothing changes (thin straps and hems below the shoulders stay).
 */
function dropHangerBar(product: Uint8Array, width: number, height: number): void {
  const radius = Math.max(2, Math.round(BAR_RADIUS_SHARE * Math.min(width, height)));
  const inWindow = windowCounts(product, width, height, radius);
  const side = 2 * radius + 1;
  const eroded = new Uint8Array(width * height);
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (!product[p]) continue;
      if (top < 0) top = y;
      bottom = y;
      // Whole squares only: at the picture's edge the square is cut, so it counts as not whole.
      if (x >= radius && y >= radius && x + radius < width && y + radius < height && inWindow(x, y) === side * side) eroded[p] = 1;
    }
  }
  if (top < 0) return;
  const nearEroded = windowCounts(eroded, width, height, radius);
  const lastRow = Math.min(bottom, top + Math.round(BAR_ROWS_SHARE * (bottom - top + 1)));
  for (let y = top; y <= lastRow; y++) {
    let left = -1;
    let right = -1;
    for (let x = 0; x < width; x++) {
      if (!product[y * width + x] || nearEroded(x, y) === 0) continue;
      if (left < 0) left = x;
      right = x;
    }
    if (left < 0) continue;
    for (let x = 0; x < width; x++) if (x < left || x > right) product[y * width + x] = 0;
  }
}

/**
 * Product opacity per pixel (0 = background, 255 = product), for a photo of this kind of product. Pixels that are
 * not background keep their own alpha; the edge is soft.
 */
export function productAlpha(image: RgbaImage, kind: CutoutKind = 'any', model = backgroundModel(image)): Uint8Array {
  const { width, height } = image;
  const count = width * height;
  const measured = distances(image, model);
  const background = floodBackground(image, measured);
  const product = new Uint8Array(count);
  for (let p = 0; p < count; p++) product[p] = background[p] ? 0 : 1;

  // Jewelry: an enclosed region of the background's own colour is a hole (the inside of a ring or a chain's loop).
  if (kind === 'jewelry' && model) {
    for (let p = 0; p < count; p++) if (product[p] && measured.distance[p]! < KEY_BACKGROUND) product[p] = 0;
  }
  if (kind === 'clothing') {
    dropHangerHook(image, product);
    dropHangerBar(product, image.width, image.height);
  }

  // Dust and stray marks: keep the pieces of a real size.
  const { labels, sizes } = pieces(product, width);
  const largest = Math.max(0, ...sizes);
  for (let p = 0; p < count; p++) if (product[p] && sizes[labels[p]!]! < SPECK_SHARE * largest) product[p] = 0;

  return softEdge(image, product, measured.distance);
}

/**
 * The feathered edge. Inside, alpha is the pixel's own; along the border (product pixels touching background, and
 * the background pixels touching them) it is the pixel's coverage: its colour distance from the background over the
 * largest distance of the product nearby. An anti-aliased border pixel that is a third product gets a third of the
 * product's opacity, so thin chains and fine edges keep their true width.
 */
function softEdge(image: RgbaImage, product: Uint8Array, distance: Float32Array): Uint8Array {
  const { data, width, height } = image;
  const count = width * height;
  const alpha = new Uint8Array(count);
  const RADIUS = 2;
  for (let p = 0; p < count; p++) {
    const x = p % width;
    const y = (p - x) / width;
    let border = false;
    for (let dy = -1; dy <= 1 && !border; dy++) {
      for (let dx = -1; dx <= 1 && !border; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        border = product[ny * width + nx] !== product[p];
      }
    }
    if (!border) {
      alpha[p] = product[p] ? data[p * 4 + 3]! : 0;
      continue;
    }
    let full = 0;
    for (let dy = -RADIUS; dy <= RADIUS; dy++) {
      for (let dx = -RADIUS; dx <= RADIUS; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const q = ny * width + nx;
        if (product[q] && distance[q]! > full) full = distance[q]!;
      }
    }
    const coverage = full > 0 ? Math.min(1, distance[p]! / full) : 0;
    // Background beside the product keeps only a faint share (the feather), never enough to count as product.
    alpha[p] = Math.round(data[p * 4 + 3]! * (product[p] ? coverage : Math.min(coverage, 0.35)));
  }
  return alpha;
}

/**
 * Whether the product stands on a plain background (a product photo) rather than in a full picture (a scene): most
 * of the border is within KEY_BACKGROUND of the border's median colour in every channel. A studio sweep is plain; a
 * scene, or a studio picture whose light falls off steeply (as the engine's own on-model pictures do), is not.
 */
export function hasPlainBackground(image: RgbaImage): boolean {
  const { data } = image;
  const border = borderPixels(image);
  const opaque = border.filter((p) => data[p * 4 + 3]! >= 128);
  if (opaque.length < border.length / 2) return true;
  const mid = [0, 1, 2].map((c) => median(opaque.map((p) => data[p * 4 + c]!)));
  const plain = opaque.filter((p) => [0, 1, 2].every((c) => Math.abs(data[p * 4 + c]! - mid[c]!) < KEY_BACKGROUND)).length;
  return plain >= PLAIN_BORDER_SHARE * border.length;
}

export interface Cutout {
  /** The product trimmed to its bounding box, background transparent. */
  product: RgbaImage;
  /** The photo's background colour, when it had one. */
  background: Rgb | undefined;
  /** Which method cut it out, or 'edited' when the seller's own mask did. */
  method: CutoutMethod | 'edited';
  quality: CutoutQuality;
  /** The product's opacity per pixel of the whole photo (what the product was cut out by). */
  alpha: Uint8Array;
}

/** Cuts away the uniform background around the product (sharp `trim`, from the top-left pixel's colour). */
export function trimToProduct(image: RgbaImage): Promise<RgbaImage> {
  return toRgba(openRgba(image).trim({ threshold: KEY_BACKGROUND }));
}

/**
 * The picture with the product's alpha, trimmed to the product's bounding box. A partly covered edge pixel is a mix
 * of product and background: the background's share is taken out of its colour, so no light or dark fringe follows
 * the product onto another backdrop.
 */
export function cutOut(image: RgbaImage, alpha: Uint8Array, model?: BackgroundModel): { image: RgbaImage; box: CutoutQuality['box'] } | undefined {
  const { width, height } = image;
  let left = width, right = -1, top = height, bottom = -1;
  for (let p = 0; p < alpha.length; p++) {
    if (alpha[p]! < 8) continue;
    const x = p % width;
    const y = (p - x) / width;
    if (x < left) left = x;
    if (x > right) right = x;
    if (y < top) top = y;
    if (y > bottom) bottom = y;
  }
  if (right < 0) return undefined;
  const w = right - left + 1;
  const h = bottom - top + 1;
  const data = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = (top + y) * width + left + x;
      const o = (y * w + x) * 4;
      image.data.copy(data, o, p * 4, p * 4 + 3);
      const a = alpha[p]! / 255;
      data[o + 3] = alpha[p]!;
      if (model && a > 0.05 && a < 0.98) {
        const bx = left + x;
        const by = top + y;
        for (let c = 0; c < 3; c++) {
          const behind = model.base[c]! + model.dx[c]! * bx + model.dy[c]! * by;
          data[o + c] = Math.max(0, Math.min(255, Math.round((image.data[p * 4 + c]! - (1 - a) * behind) / a)));
        }
      }
    }
  }
  return { image: { data, width: w, height: h }, box: { left, top, width: w, height: h } };
}

/** How a cutout was made: by colour distance from the background (above) or by the segmentation network. */
export type CutoutMethod = 'colour' | 'network';

/**
 * Which method cuts out this photo, as measured by bench/cutout.ts on the drawn set (plain backgrounds) and the
 * photographic set (the same products on real photographs): on a plain background colour distance wins (mean IoU
 * 0.994; the refined network 0.97, losing most on thin jewelry); on a busy background the network refined by the
 * photo's colours (network-cutout.ts) wins: clothing 0.993–0.999 against colour's 0.28–0.99 and the bare network's
 * 0.94–0.99; jewelry 0.78–0.95 against 0.05–0.12 and 0.25–0.39. A wood floor's border is 0.93–0.95 plain and is cut
 * better as busy (jeans: 0.994 against 0.922), hence PLAIN_BORDER_SHARE.
 */
export function cutoutMethodFor(image: RgbaImage): CutoutMethod {
  return hasPlainBackground(image) ? 'colour' : 'network';
}

/** The product's opacity per pixel by the better method for this photo (cutoutMethodFor), which it was, and (by the network) how sure it was. */
export async function productAlphaFor(
  image: RgbaImage,
  kind: CutoutKind = 'any',
  model = backgroundModel(image),
): Promise<{ alpha: Uint8Array; method: CutoutMethod; unsureOutline?: number }> {
  if (cutoutMethodFor(image) === 'network') {
    try {
      const { alpha, unsureOutline } = await networkCutout(image, kind);
      // The network found nothing: the colour cut may still find the product (it is asked below).
      if (alpha.some((value) => value >= 128)) return { alpha, method: 'network', unsureOutline };
    } catch (error) {
      // A function deployed without the network (only those that declare it carry its 25 MB) cuts out by colour.
      if (!(error instanceof SegmentationUnavailable)) throw error;
    }
  }
  return { alpha: productAlpha(image, kind, model), method: 'colour' };
}

/** A product smaller than this (pixels, its longer side, in the photo as cut out) is too small to make a picture of. */
export const MIN_PRODUCT_SIDE = 16;

/** What a cutout measured of itself: where the product was, and how sure the network was of its outline. */
export interface CutoutQuality {
  /** The product's bounding box in the photo as cut out (pixels). */
  box: { left: number; top: number; width: number; height: number };
  /** The product's opaque pixels over the photo's pixels. */
  areaShare: number;
  /** By the network: the share of the product's outline where it was unsure (network-cutout.ts, unsureOutlineShare). */
  unsureOutline?: number;
}

/**
 * The product of a photo, cut out of its background (and, for clothing, its hanger), trimmed to its bounds.
 * `edited` is a mask the seller drew (white = product, at the photo's size): it replaces the automatic one.
 */
export async function cutOutProduct(image: RgbaImage, kind: CutoutKind = 'any', edited?: Uint8Array): Promise<Cutout> {
  const model = backgroundModel(image);
  const { alpha, method, unsureOutline } = edited ? { alpha: edited, method: 'edited' as const, unsureOutline: 0 } : await productAlphaFor(image, kind, model);
  // Colour un-mixing of the edge assumes the background plane, which only a plain background has.
  const product = cutOut(image, alpha, method === 'colour' ? model : undefined);
  if (!product) {
    throw new ProviderError(
      'unsupported',
      edited ? 'No product found: the refined cutout keeps nothing of the photo.' : 'No product found: neither the segmentation network nor the colour cut found a product in this photo.',
    );
  }
  const { box } = product;
  if (Math.max(box.width, box.height) < MIN_PRODUCT_SIDE) {
    throw new ProviderError(
      'unsupported',
      `The cutout found only a ${box.width}×${box.height} px piece of this ${image.width}×${image.height} photo (by ${method === 'colour' ? 'colour' : method === 'edited' ? 'your refined mask' : 'the segmentation network'}): too small to make a picture of (at least ${MIN_PRODUCT_SIDE} px).`,
    );
  }
  let opaque = 0;
  for (const value of alpha) if (value >= 128) opaque++;
  return {
    product: product.image,
    background: method === 'colour' ? backgroundColourOf(model) : undefined,
    method,
    alpha,
    quality: { box, areaShare: opaque / alpha.length, ...(unsureOutline === undefined ? {} : { unsureOutline }) },
  };
}
