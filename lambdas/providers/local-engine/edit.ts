// Edits by instruction (edit-instructions.ts), applied in the order written, each as its own pass so the order holds
// (sharp would reorder operations inside one pipeline).
import type { EditPort } from '../ports.js';
import type { Rgb } from './colours.js';
import { productAlpha, trimToProduct } from './cutout.js';
import { parseEditInstructions, type EditStep } from './edit-instructions.js';
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
