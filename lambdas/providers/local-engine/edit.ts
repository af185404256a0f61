// Edits by instruction (edit-instructions.ts), applied in the order written, each as its own pass so the order holds
// (sharp would reorder operations inside one pipeline).
import type { EditPort } from '../ports.js';
import type { Rgb } from './colours.js';
import { hasPlainBackground, productAlpha, trimToProduct } from './cutout.js';
import { parseEditInstructions, ratioCropSize, type EditStep } from './edit-instructions.js';
import { decodeRgba, encodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';

/** Rec. 709 luma weights. */
const LUMA: [number, number, number] = [0.2126, 0.7152, 0.0722];

function replaceBackground(image: RgbaImage, colour: Rgb): RgbaImage {
  const alpha = productAlpha(image);
  const data = Buffer.allocUnsafe(image.data.length);
  const fill = [colour.r, colour.g, colour.b];
  for (let p = 0, i = 0; p < alpha.length; p++, i += 4) {
    const a = alpha[p]! / 255;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(image.data[i + c]! * a + fill[c]! * (1 - a));
    data[i + 3] = 255;
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
      // Red up and blue down (warmer), or the reverse; green stays.
      return toRgba(pipeline.linear([1 + step.shift, 1, 1 - step.shift, 1], [0, 0, 0, 0]));
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
    for (const step of steps) result = await applyStep(result, step);
    return encodeRgba(result);
  },
};
