// Where a cut-out product goes on the person-form, in figure units (framing.ts), at its own proportions: never
// stretched.
// - Clothing hangs from the neckline, scaled so its waist (the narrowest row of its middle third) is the form's.
// - Jewelry is worn where it belongs: a necklace at the neckline, earrings (two separate pieces side by side) at the
//   ears, a ring or bangle (a piece with a hole through it) on the hand.
// Each placement names its focus, the region a close-up frames.
import { EAR, NECKLINE_Y, POSE_SHAPES } from './backdrop.js';
import type { Region } from './framing.js';
import type { Pose } from './persona.js';
import type { RgbaImage } from './raster.js';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type ProductKind = 'garment' | 'necklace' | 'earrings' | 'ring';

export interface Placement {
  kind: ProductKind;
  /** The product's pieces (two for earrings) and where each goes, in figure units. */
  layers: Array<{ image: RgbaImage; box: Box }>;
  /** What a close-up frames. */
  focus: Region;
}

/** The form's waist, where a garment's narrowest middle row goes. */
const GARMENT_WAIST = 0.19;
/** A garment never grows wider or longer than this. */
const GARMENT_MAX = { width: 0.62, height: 0.82 };
const NECKLACE_WIDTH = 0.15;
/** Where a necklace's ends sit, just above the neckline. */
const NECKLACE_TOP = NECKLINE_Y - 0.022;
/** A necklace hangs at most this far below its ends (to the waist): a longer cut-out is made narrower to fit. */
const NECKLACE_MAX_DROP = 0.42;
/** A necklace's close-up: from the chin down, at least this large, and this margin around the necklace. */
const NECKLACE_FOCUS = { top: 0.02, width: 0.28, height: 0.3 };
const NECKLACE_FOCUS_MARGIN = 0.03;
const EARRING_HEIGHT = 0.05;
const RING_WIDTH = 0.022;
/** A ring's or bangle's hole is at least this share of its bounding box. */
const HOLE_SHARE = 0.15;
/** Alpha from which a pixel counts as product when measuring shapes. */
const SOLID = 128;

const solid = (image: RgbaImage, x: number, y: number) => image.data[(y * image.width + x) * 4 + 3]! >= SOLID;

function rowExtent(image: RgbaImage, y: number): number {
  let left = -1;
  let right = -1;
  for (let x = 0; x < image.width; x++) {
    if (!solid(image, x, y)) continue;
    if (left < 0) left = x;
    right = x;
  }
  return left < 0 ? 0 : right - left + 1;
}

/** The narrowest row of the middle third: a garment's waist (sleeves and hems are wider). */
function waistWidth(image: RgbaImage): number {
  let waist = image.width;
  for (let y = Math.floor(image.height / 3); y < Math.ceil((2 * image.height) / 3); y++) {
    const extent = rowExtent(image, y);
    if (extent > 0 && extent < waist) waist = extent;
  }
  return Math.max(1, waist);
}

function crop(image: RgbaImage, left: number, width: number): RgbaImage {
  const data = Buffer.alloc(width * image.height * 4);
  for (let y = 0; y < image.height; y++) image.data.copy(data, y * width * 4, (y * image.width + left) * 4, (y * image.width + left + width) * 4);
  return trimRows({ data, width, height: image.height });
}

function trimRows(image: RgbaImage): RgbaImage {
  let top = 0;
  let bottom = image.height - 1;
  const empty = (y: number) => {
    for (let x = 0; x < image.width; x++) if (image.data[(y * image.width + x) * 4 + 3]! > 0) return false;
    return true;
  };
  while (top < bottom && empty(top)) top++;
  while (bottom > top && empty(bottom)) bottom--;
  const height = bottom - top + 1;
  return { data: image.data.subarray(top * image.width * 4, (bottom + 1) * image.width * 4), width: image.width, height };
}

/** Two pieces side by side with empty columns between them: the left and right earring. */
function earringPair(image: RgbaImage): [RgbaImage, RgbaImage] | undefined {
  const filled = Array.from({ length: image.width }, (_, x) => {
    for (let y = 0; y < image.height; y++) if (image.data[(y * image.width + x) * 4 + 3]! > 0) return true;
    return false;
  });
  let best = { start: -1, length: 0 };
  for (let x = 0; x < image.width; ) {
    if (filled[x]) {
      x++;
      continue;
    }
    const start = x;
    while (x < image.width && !filled[x]) x++;
    if (x - start > best.length) best = { start, length: x - start };
  }
  if (best.length < image.width * 0.05) return undefined;
  const left = crop(image, 0, best.start);
  const right = crop(image, best.start + best.length, image.width - best.start - best.length);
  const mass = (piece: RgbaImage) => piece.width * piece.height;
  const total = mass(left) + mass(right);
  return mass(left) > total * 0.25 && mass(right) > total * 0.25 ? [left, right] : undefined;
}

/** Whether transparent pixels enclosed by the product make up a hole (a ring's inside). */
function hasHole(image: RgbaImage): boolean {
  const { width, height } = image;
  const outside = new Uint8Array(width * height);
  const stack: number[] = [];
  const visit = (x: number, y: number) => {
    const p = y * width + x;
    if (outside[p] || solid(image, x, y)) return;
    outside[p] = 1;
    stack.push(p);
  };
  for (let x = 0; x < width; x++) {
    visit(x, 0);
    visit(x, height - 1);
  }
  for (let y = 0; y < height; y++) {
    visit(0, y);
    visit(width - 1, y);
  }
  while (stack.length > 0) {
    const p = stack.pop()!;
    const x = p % width;
    const y = (p - x) / width;
    if (x > 0) visit(x - 1, y);
    if (x < width - 1) visit(x + 1, y);
    if (y > 0) visit(x, y - 1);
    if (y < height - 1) visit(x, y + 1);
  }
  let hole = 0;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (!outside[y * width + x] && !solid(image, x, y)) hole++;
  const aspect = width / height;
  return hole >= HOLE_SHARE * width * height && aspect > 0.4 && aspect < 2.5;
}

/** A box of the image's own proportions, `width` wide, centred at cx with its top at `top`. */
function boxOf(image: RgbaImage, cx: number, top: number, width: number): Box {
  return { left: cx - width / 2, top, width, height: (width * image.height) / image.width };
}

export function placeProduct(product: RgbaImage, productType: 'clothing' | 'jewelry', pose: Pose): Placement {
  if (productType === 'clothing') {
    const scale = Math.min(GARMENT_WAIST / waistWidth(product), GARMENT_MAX.width / product.width, GARMENT_MAX.height / product.height);
    const box = boxOf(product, 0, NECKLINE_Y, product.width * scale);
    return { kind: 'garment', layers: [{ image: product, box }], focus: { cx: 0, cy: box.top + box.height / 2, width: box.width, height: box.height } };
  }
  const pair = earringPair(product);
  if (pair) {
    const top = EAR.cy + EAR.ry * 0.6;
    const layers = pair.map((image, index) => {
      const width = (EARRING_HEIGHT * image.width) / image.height;
      return { image, box: boxOf(image, (index === 0 ? -1 : 1) * EAR.cx, top, width) };
    });
    return { kind: 'earrings', layers, focus: { cx: 0, cy: 0.09, width: 0.16, height: 0.2 } };
  }
  if (hasHole(product)) {
    const [x, y] = POSE_SHAPES[pose].hand;
    const box = boxOf(product, x, 0, RING_WIDTH);
    box.top = y + 0.006 - box.height / 2;
    return { kind: 'ring', layers: [{ image: product, box }], focus: { cx: x, cy: y, width: 0.07, height: 0.07 } };
  }
  // Its ends at the neck, never hanging below the waist; a close-up frames it whole, from the chin to the pendant's
  // tip (a long chain's pendant was cut off by a fixed frame).
  const width = Math.min(NECKLACE_WIDTH, (NECKLACE_MAX_DROP * product.width) / product.height);
  const box = boxOf(product, 0, NECKLACE_TOP, width);
  const bottom = box.top + box.height + NECKLACE_FOCUS_MARGIN;
  const height = Math.max(NECKLACE_FOCUS.height, bottom - NECKLACE_FOCUS.top);
  const focus = { cx: 0, cy: NECKLACE_FOCUS.top + height / 2, width: Math.max(NECKLACE_FOCUS.width, box.width + 2 * NECKLACE_FOCUS_MARGIN), height };
  return { kind: 'necklace', layers: [{ image: product, box }], focus };
}
