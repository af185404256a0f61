// On-model pictures without AI: the product, cut out of its photo (and off its hanger), worn by a plain person-form in
// a studio, at exactly the requested size. What goes where is placement.ts (garments at their own proportions from
// the neckline; a necklace at the neckline, earrings at the ears, a ring on the hand); the camera zoom frames it
// (framing.ts). The model description tints the form (skin tone, hair colour) and picks its pose (persona.ts); a
// colour named for the wall tints the studio. What the engine cannot render is listed on the result (notRendered).
// `promptEnhance` has nothing to enhance here and is ignored.
//
// Batch photos name a camera angle and a backdrop colour. Product = the product alone on the backdrop; Full Body and
// Mid-shot = those zoom levels; Front = knees up; Back = the same framing showing the garment's silhouette in its
// own colours without its print (the engine has only a front photo: never a mirror image); Side = a narrowed form
// and silhouette. Nothing is written on the picture but the small corner mark.
//
// Fault knob for tests and demos of the failure path: a prompt containing `[local-engine: fail]` makes the request
// fail as a provider would; `[local-engine: fail <Angle>]` (e.g. `[local-engine: fail Back]`) fails only that angle.
import type { OnModelImagePort, OnModelImageRequest, Size } from '../ports.js';
import { ProviderError } from '../ports.js';
import { STUDIO_GREY, studioBackdrop } from './backdrop.js';
import { findColour, mixColours, parseColour, type Rgb } from './colours.js';
import { cutOutProduct } from './cutout.js';
import { frame, shotFor, THREE_QUARTER_SHOT, type View } from './framing.js';
import { labelPlacement, renderLabel } from './label.js';
import { personForm, type PersonForm } from './persona.js';
import { placeProduct, type Box } from './placement.js';
import { decodeProductPhoto } from './product-photo.js';
import { encodeRgba, openRgba, toRgba, type RgbaImage } from './raster.js';

/** How strongly a colour named in the prompt tints the neutral studio grey. */
const PROMPT_TINT = 0.45;
/** A side view: the form and the product this much narrower. */
const SIDE_WIDTH = 0.5;
/** The product alone fills this share of the picture. */
const PRODUCT_ALONE = { width: 0.8, height: 0.62 };
/** Listed under a Back picture: the engine shows the back as the front's silhouette. */
const BACK_NOT_RENDERED = 'the back of the product (shown as its silhouette in its own colours)';

const FAULT = /\[local-engine:\s*fail(?:\s+([^\]]+?))?\s*\]/i;

function injectedFault(request: OnModelImageRequest): ProviderError | undefined {
  const match = FAULT.exec(request.model.description);
  if (!match) return undefined;
  const only = match[1]?.trim().toLowerCase();
  if (only && only !== request.angle?.toLowerCase()) return undefined;
  return new ProviderError('failed', 'The local engine was asked to fail this picture ([local-engine: fail] in the prompt).');
}

/** The studio's colour: the batch backdrop, or a colour the description names for the wall (not for hair or skin). */
function studioColour(request: OnModelImageRequest, form: PersonForm): Rgb {
  const backdrop = request.backdrop ? parseColour(request.backdrop) : undefined;
  if (backdrop) return backdrop;
  const tint = findColour(form.otherWords);
  return tint ? mixColours(STUDIO_GREY, tint, PROMPT_TINT) : STUDIO_GREY;
}

/**
 * The product's back as far as one front photo tells it: its silhouette filled with its own main colour (the most
 * common one, in coarse bins), lit from above. No print, no mirror image.
 */
export function silhouette(product: RgbaImage): RgbaImage {
  const bins = new Map<number, { weight: number; r: number; g: number; b: number }>();
  const { data, width, height } = product;
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3]!;
    if (a < 128) continue;
    const key = ((data[i]! >> 5) << 6) | ((data[i + 1]! >> 5) << 3) | (data[i + 2]! >> 5);
    const bin = bins.get(key) ?? { weight: 0, r: 0, g: 0, b: 0 };
    bin.weight += 1;
    bin.r += data[i]!;
    bin.g += data[i + 1]!;
    bin.b += data[i + 2]!;
    bins.set(key, bin);
  }
  let main = { weight: 1, r: 128, g: 128, b: 128 };
  for (const bin of bins.values()) if (bin.weight > main.weight) main = bin;
  const colour = [main.r / main.weight, main.g / main.weight, main.b / main.weight];
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < height; y++) {
    const light = 1.04 - 0.12 * (y / Math.max(1, height - 1));
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(colour[c]! * light)));
      out[i + 3] = data[i + 3]!;
    }
  }
  return { data: out, width, height };
}

/** The part of a layer inside the picture, and where it goes (sharp composites only layers within the picture). */
function clipped(image: RgbaImage, left: number, top: number, size: Size): { image: RgbaImage; left: number; top: number } | undefined {
  const x0 = Math.max(0, -left);
  const y0 = Math.max(0, -top);
  const x1 = Math.min(image.width, size.width - left);
  const y1 = Math.min(image.height, size.height - top);
  if (x1 <= x0 || y1 <= y0) return undefined;
  if (x0 === 0 && y0 === 0 && x1 === image.width && y1 === image.height) return { image, left, top };
  const width = x1 - x0;
  const height = y1 - y0;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) image.data.copy(data, y * width * 4, ((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x1) * 4);
  return { image: { data, width, height }, left: left + x0, top: top + y0 };
}

function toPixels(box: Box, view: View, figureWidth: number): Box {
  const width = box.width * view.scale * figureWidth;
  // A side view narrows the form about its centre line (x = 0): the product narrows with it.
  const cx = (box.left + box.width / 2) * view.scale * figureWidth + view.offsetX;
  return { left: cx - width / 2, top: box.top * view.scale + view.offsetY, width, height: box.height * view.scale };
}

export const localOnModelImage: OnModelImagePort = {
  async generate(request) {
    const fault = injectedFault(request);
    if (fault) throw fault;
    const { size, angle } = request;
    const form = personForm(request.model, FAULT);
    // Cut out as the packshot engine cuts it (product-photo.ts), so the product is the same in every picture of it.
    const { product } = await cutOutProduct(await decodeProductPhoto(request.product.bytes), request.productType);
    const back = angle === 'Back' || angle === 'Side';
    const shown = back ? silhouette(product) : product;
    const notRendered = [...form.notRendered, ...(angle === 'Back' ? [BACK_NOT_RENDERED] : [])];

    let pieces: Array<{ image: RgbaImage; box: Box }>;
    let figure: { view: View; form: PersonForm; width: number } | undefined;
    if (angle === 'Product') {
      const scale = Math.min((size.width * PRODUCT_ALONE.width) / shown.width, (size.height * PRODUCT_ALONE.height) / shown.height);
      const width = shown.width * scale;
      const height = shown.height * scale;
      pieces = [{ image: shown, box: { left: (size.width - width) / 2, top: (size.height - height) / 2, width, height } }];
    } else {
      const placement = placeProduct(shown, request.productType, form.pose);
      const custom = angle === 'Front' || angle === 'Back' || angle === 'Side' ? THREE_QUARTER_SHOT : undefined;
      const zoom = angle === 'Full Body' ? 'full-body' : angle === 'Mid-shot' ? 'mid-shot' : request.cameraZoom;
      const view = frame(shotFor({ productType: request.productType, cameraZoom: zoom }), size, placement.focus, custom);
      const figureWidth = angle === 'Side' ? SIDE_WIDTH : 1;
      figure = { view, form, width: figureWidth };
      pieces = placement.layers.map(({ image, box }) => ({ image, box: toPixels(box, view, figureWidth) }));
    }

    const layers: { image: RgbaImage; left: number; top: number }[] = [];
    for (const { image, box } of pieces) {
      const width = Math.max(1, Math.round(box.width));
      const height = Math.max(1, Math.round(box.height));
      const resized = await toRgba(openRgba(image).resize({ width, height, fit: 'fill', kernel: 'lanczos3' }));
      const layer = clipped(resized, Math.round(box.left), Math.round(box.top), size);
      if (layer) layers.push(layer);
    }
    const labelAt = labelPlacement(size.width, size.height);
    layers.push({ image: renderLabel(size.width), left: labelAt.left, top: labelAt.top });
    const picture = await toRgba(
      studioBackdrop(size, studioColour(request, form), figure).composite(
        layers.map(({ image, left, top }) => ({ input: image.data, raw: { width: image.width, height: image.height, channels: 4 as const }, left, top })),
      ),
    );
    return encodeRgba(picture, notRendered);
  },
};
