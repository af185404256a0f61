// On-model pictures without AI: the product, cut out of its photo, placed on a stylised mannequin in a studio, framed
// by product type and camera zoom (framing.ts), at exactly the requested size. A colour named in the model prompt
// tints the studio. `promptEnhance` has nothing to enhance here and is ignored.
import type { OnModelImagePort } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import { findColour, mixColours } from './colours.js';
import { cutOutProduct } from './cutout.js';
import { frame } from './framing.js';
import { labelPlacement, renderLabel } from './label.js';
import { decodeRgba, encodeRgba, openRgba, toRgba } from './raster.js';

/** Larger product photos are shrunk to this first: the largest product box (a 4k close-up) is about 2600 px wide. */
const PRODUCT_MAX_SIDE = 3072;
/** How strongly a colour named in the prompt tints the neutral studio grey. */
const PROMPT_TINT = 0.45;

export const localOnModelImage: OnModelImagePort = {
  async generate(request) {
    const { size } = request;
    const { product } = await cutOutProduct(await decodeRgba(request.product.bytes, PRODUCT_MAX_SIDE));
    const { view, productBox } = frame(request, size);
    const fitted = await toRgba(
      openRgba(product).resize({
        width: Math.max(1, Math.floor(productBox.width)),
        height: Math.max(1, Math.floor(productBox.height)),
        fit: 'inside',
        kernel: 'lanczos3',
      }),
    );
    const tint = findColour(request.prompt);
    const studio = tint ? mixColours(STUDIO_GREY, tint, PROMPT_TINT) : STUDIO_GREY;
    const label = renderLabel(size.width);
    const labelAt = labelPlacement(size.width, size.height);
    const picture = await toRgba(
      studioBackdrop(size, studio, view).composite([
        {
          input: fitted.data,
          raw: { width: fitted.width, height: fitted.height, channels: 4 },
          left: Math.round(productBox.left + (productBox.width - fitted.width) / 2),
          top: Math.round(productBox.top + (productBox.height - fitted.height) / 2),
        },
        {
          input: label.data,
          raw: { width: label.width, height: label.height, channels: 4 },
          left: labelAt.left,
          top: labelAt.top,
        },
      ]),
    );
    return encodeRgba(picture);
  },
};
