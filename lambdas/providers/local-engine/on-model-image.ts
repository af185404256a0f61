// On-model pictures without AI: the product, cut out of its photo, placed on a stylised mannequin in a studio, framed
// by product type and camera zoom (framing.ts), at exactly the requested size. A colour named in the model prompt
// tints the studio. `promptEnhance` has nothing to enhance here and is ignored.
//
// Batch photos name a camera angle and a backdrop colour. The studio is then that colour, and each angle is its own
// composition, captioned with what it really is (the engine has one photo of the product, so it cannot see its back
// or side): Product = the product alone on the backdrop; Full Body and Mid-shot = those zoom levels; Front = knees
// up; Back = the same framing with the product mirrored and shaded, captioned "BACK (MIRRORED FRONT)"; Side = a
// narrowed mannequin with the product compressed sideways, captioned "SIDE (COMPRESSED)".
//
// Fault knob for tests and demos of the failure path: a prompt containing `[local-engine: fail]` makes the request
// fail as a provider would; `[local-engine: fail <Angle>]` (e.g. `[local-engine: fail Back]`) fails only that angle.
import type { OnModelImagePort, OnModelImageRequest } from '../ports.js';
import { ProviderError } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import { findColour, mixColours, parseColour, type Rgb } from './colours.js';
import { cutOutProduct } from './cutout.js';
import { frame, THREE_QUARTER_SHOT, type Framing } from './framing.js';
import { labelPlacement, renderLabel } from './label.js';
import { decodeRgba, encodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';

/** Larger product photos are shrunk to this first: the largest product box (a 4k close-up) is about 2600 px wide. */
const PRODUCT_MAX_SIDE = 3072;
/** How strongly a colour named in the prompt tints the neutral studio grey. */
const PROMPT_TINT = 0.45;
/** A side view: the mannequin and the product this much narrower. */
const SIDE_WIDTH = 0.5;
/** The product alone fills this share of the picture. */
const PRODUCT_ALONE = { width: 0.8, height: 0.62 };

type Angle = NonNullable<OnModelImageRequest['angle']>;

const FAULT = /\[local-engine:\s*fail(?:\s+([^\]]+?))?\s*\]/i;

function injectedFault(request: OnModelImageRequest): ProviderError | undefined {
  const match = FAULT.exec(request.model.description);
  if (!match) return undefined;
  const only = match[1]?.trim().toLowerCase();
  if (only && only !== request.angle?.toLowerCase()) return undefined;
  return new ProviderError('failed', 'The local engine was asked to fail this picture ([local-engine: fail] in the prompt).');
}

function studioColour(request: OnModelImageRequest): Rgb {
  const backdrop = request.backdrop ? parseColour(request.backdrop) : undefined;
  if (backdrop) return backdrop;
  const tint = findColour(request.model.description);
  return tint ? mixColours(STUDIO_GREY, tint, PROMPT_TINT) : STUDIO_GREY;
}

/** Where the product goes and whether the mannequin is drawn, for the request's angle (or its zoom). */
function compose(request: OnModelImageRequest): { framing: Framing | undefined; productBox: Framing['productBox']; figureWidth: number } {
  const { size, angle } = request;
  if (angle === 'Product') {
    const width = size.width * PRODUCT_ALONE.width;
    const height = size.height * PRODUCT_ALONE.height;
    return { framing: undefined, productBox: { left: (size.width - width) / 2, top: (size.height - height) / 2, width, height }, figureWidth: 1 };
  }
  const custom = angle === 'Front' || angle === 'Back' || angle === 'Side' ? THREE_QUARTER_SHOT : undefined;
  const zoom = angle === 'Full Body' ? 'full-body' : angle === 'Mid-shot' ? 'mid-shot' : request.cameraZoom;
  const framing = frame({ productType: request.productType, cameraZoom: zoom }, size, custom);
  if (angle !== 'Side') return { framing, productBox: framing.productBox, figureWidth: 1 };
  const box = framing.productBox;
  const width = box.width * SIDE_WIDTH;
  return { framing, productBox: { ...box, left: box.left + (box.width - width) / 2, width }, figureWidth: SIDE_WIDTH };
}

export const localOnModelImage: OnModelImagePort = {
  async generate(request) {
    const fault = injectedFault(request);
    if (fault) throw fault;
    const { size, angle } = request;
    const { product } = await cutOutProduct(await decodeRgba(request.product.bytes, PRODUCT_MAX_SIDE));
    const { framing, productBox, figureWidth } = compose(request);
    const resized = openRgba(product).resize({
      width: Math.max(1, Math.floor(productBox.width)),
      height: Math.max(1, Math.floor(productBox.height)),
      // A side view keeps the compressed width; every other view keeps the product's proportions.
      fit: angle === 'Side' ? 'fill' : 'inside',
      kernel: 'lanczos3',
    });
    // The back is the front mirrored and in shade: honest about being the same photo.
    if (angle === 'Back') resized.flop().linear([0.82, 0.82, 0.82, 1], [0, 0, 0, 0]);
    const fitted = await toRgba(resized);
    const label = renderLabel(size.width);
    const labelAt = labelPlacement(size.width, size.height);
    const layers: { image: RgbaImage; left: number; top: number }[] = [
      {
        image: fitted,
        left: Math.round(productBox.left + (productBox.width - fitted.width) / 2),
        top: Math.round(productBox.top + (productBox.height - fitted.height) / 2),
      },
      { image: label, left: labelAt.left, top: labelAt.top },
    ];
    const picture = await toRgba(
      studioBackdrop(size, studioColour(request), framing?.view, figureWidth).composite(
        layers.map(({ image, left, top }) => ({ input: image.data, raw: { width: image.width, height: image.height, channels: 4 as const }, left, top })),
      ),
    );
    return encodeRgba(picture);
  },
};
