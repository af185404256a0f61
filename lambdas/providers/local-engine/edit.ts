// Edits by instruction (edit-instructions.ts), applied in the order written, each as its own pass so the order holds
// (sharp would reorder operations inside one pipeline). The product is told from its background by the one cutout the
// studio uses everywhere (cutout.ts productAlphaFor: colour distance on a plain background, the segmentation network on
// a busy one), so "remove the background" keeps a necklace's chain here as it does in a packshot.
import type { EditPort } from '../ports.js';
import type { Rgb } from './colours.js';
import { hasPlainBackground, productAlpha, productAlphaFor, trimToProduct } from './cutout.js';
import { describeEditStep, parseEditInstructions, ratioCropSize, type EditStep } from './edit-instructions.js';
import { decodeRgba, encodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';

/** Rec. 709 luma weights. */
const LUMA: [number, number, number] = [0.2126, 0.7152, 0.0722];

/** The product cut out onto a colour, or onto transparency (its alpha kept in the PNG). */
async function replaceBackground(image: RgbaImage, colour: Rgb | 'transparent'): Promise<RgbaImage> {
  const { alpha } = await productAlphaFor(image);
  const data = Buffer.allocUnsafe(image.data.length);
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const a = alpha[p]! / 255;
    if (colour === 'transparent') {
      image.data.copy(data, i, i, i + 3);
      data[i + 3] = Math.round(alpha[p]! * (image.data[i + 3]! / 255));
      continue;
    }
    const fill = [colour.r, colour.g, colour.b];
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(image.data[i + c]! * a + fill[c]! * (1 - a));
    data[i + 3] = 255;
  }
  return { ...image, data };
}

/**
 * Warmer (shift > 0) or cooler light: red up and blue down (or the reverse), green kept, everywhere but on the product,
 * which keeps its colour (a seller's navy tee must not turn olive).
 */
async function shiftTemperature(image: RgbaImage, shift: number): Promise<RgbaImage> {
  const { alpha } = await productAlphaFor(image);
  const data = Buffer.from(image.data);
  const gains = [1 + shift, 1, 1 - shift];
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const around = 1 - alpha[p]! / 255;
    if (around === 0) continue;
    for (const c of [0, 2]) data[i + c] = Math.max(0, Math.min(255, Math.round(image.data[i + c]! * (1 + (gains[c]! - 1) * around))));
  }
  return { ...image, data };
}

/** The largest crop of this ratio (width / height), centred on the product when the picture has a plain background. */
async function cropToRatio(image: RgbaImage, ratio: number): Promise<RgbaImage> {
  const { width, height } = ratioCropSize(image, ratio);
  let cx = image.width / 2;
  let cy = image.height / 2;
  if (hasPlainBackground(image)) {
    const alpha = productAlpha(image);
    let left = image.width, right = -1, top = image.height, bottom = -1;
    for (let p = 0; p < alpha.length; p++) {
      if (alpha[p]! < 128) continue;
      const x = p % image.width;
      const y = (p - x) / image.width;
      left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
    }
    if (right >= 0) [cx, cy] = [(left + right + 1) / 2, (top + bottom + 1) / 2];
  }
  const left = Math.round(Math.min(Math.max(0, cx - width / 2), image.width - width));
  const top = Math.round(Math.min(Math.max(0, cy - height / 2), image.height - height));
  return toRgba(openRgba(image).extract({ left, top, width, height }));
}

async function applyStep(image: RgbaImage, step: EditStep): Promise<RgbaImage> {
  const pipeline = openRgba(image);
  switch (step.kind) {
    case 'background':
      return replaceBackground(image, step.colour);
    case 'brightness':
      return toRgba(pipeline.linear(step.factor, 0));
    case 'contrast':
      return toRgba(pipeline.linear(step.factor, 128 * (1 - step.factor)));
    case 'flip':
      return toRgba(step.axis === 'horizontal' ? pipeline.flop() : pipeline.flip());
    case 'crop-to-product':
      return trimToProduct(image);
    case 'crop-to-ratio':
      return cropToRatio(image, step.width / step.height);
    case 'temperature':
      return shiftTemperature(image, step.shift);
    case 'grayscale':
      return toRgba(pipeline.recomb([LUMA, LUMA, LUMA]));
    case 'rotate':
      return toRgba(pipeline.rotate(step.degrees));
  }
}

export const localEdit: EditPort = {
  async edit({ image, instruction }) {
    const steps = parseEditInstructions(instruction); // refuses before any work is done
    let result = await decodeRgba(image.bytes);
    const notRendered: string[] = [];
    let backgroundSet = false;
    for (const step of steps) {
      // Warmer or cooler light with the product's colour kept and the background asked for kept: nothing is left to
      // change, and the result says so rather than pretend.
      if (step.kind === 'temperature' && backgroundSet) notRendered.push(`${describeEditStep(step)} (the product keeps its colour and the background the one asked for)`);
      else result = await applyStep(result, step);
      if (step.kind === 'background') backgroundSet = true;
    }
    return encodeRgba(result, notRendered);
  },
};
