// A packshot: the product cut out of its photo (the cutout network on a busy background, colour distance on a plain
// one: cutout.ts), centred on a plain ground at the preset's fill, with an optional soft contact shadow, at the exact
// pixel size, sRGB, in the preset's format, with its provenance in XMP. Real on both hosts (nothing in it is a
// preview): no mark is drawn, and the result names the engine that made it.
import sharp, { type OverlayOptions } from 'sharp';
import { PACKSHOT_ENGINE, type PackshotFrame } from '../../contracts/marketplace.js';
import type { ProductType } from '../../contracts/catalog.js';
import { cutOutProduct, type CutoutKind } from '../../providers/local-engine/cutout.js';
import { decodeRgba, openRgba } from '../../providers/local-engine/raster.js';
import { SEGMENTATION_MODEL } from '../../providers/local-engine/segmentation.js';
import { withDigitalSourceType } from '../images/provenance.js';
import { PRODUCT_CUTOUT_MAX_SIDE } from '../../providers/local-engine/product-photo.js';

/** The photo is cut out at the size every product photo is cut out at, on-model pictures' too (product-photo.ts). */
const CUTOUT_MAX_SIDE = PRODUCT_CUTOUT_MAX_SIDE;
/** The contact shadow: its height as a share of the product's, and its darkest opacity. */
const SHADOW_HEIGHT_SHARE = 0.06;
const SHADOW_OPACITY = 0.35;

/** ai_model of a packshot: the engine and how it cut the product out. */
export const packshotEngineName = (method: 'colour' | 'network') => `${PACKSHOT_ENGINE}:${method === 'network' ? SEGMENTATION_MODEL.name.toLowerCase() : 'colour-key'}`;

export interface Packshot {
  bytes: Buffer;
  mimeType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  model: string;
}

const KIND_OF: Record<ProductType, CutoutKind> = { clothing: 'clothing', jewelry: 'jewelry' };

function parseColour(hex: string): { r: number; g: number; b: number } {
  const value = Number.parseInt(hex.slice(1), 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

/** The soft contact shadow: a blurred ellipse under the product's base, as an RGBA overlay of `width` × `height`. */
async function contactShadow(width: number, height: number): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%">` +
    `<feGaussianBlur stdDeviation="${Math.max(1, height / 5)}"/></filter></defs>` +
    `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${width * 0.42}" ry="${height * 0.28}" fill="#000" fill-opacity="${SHADOW_OPACITY}" filter="url(#b)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function renderPackshot(photo: Buffer, frame: PackshotFrame, options: { productType?: ProductType; shadow?: boolean } = {}): Promise<Packshot> {
  const image = await decodeRgba(photo, CUTOUT_MAX_SIDE);
  const { product, method } = await cutOutProduct(image, options.productType ? KIND_OF[options.productType] : 'any');
  const shadowShare = options.shadow ? SHADOW_HEIGHT_SHARE : 0;
  // The product (and, below it, half its shadow) fills `fill` of the frame along the side that limits it.
  const scale = Math.min((frame.fill * frame.width) / product.width, (frame.fill * frame.height) / (product.height * (1 + shadowShare / 2)));
  const width = Math.max(1, Math.round(product.width * scale));
  const height = Math.max(1, Math.round(product.height * scale));
  const left = Math.round((frame.width - width) / 2);
  const top = Math.round((frame.height - height * (1 + shadowShare / 2)) / 2);
  const resized = await openRgba(product).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
  const layers: OverlayOptions[] = [];
  if (options.shadow) {
    const shadowHeight = Math.max(2, Math.round(height * SHADOW_HEIGHT_SHARE));
    layers.push({ input: await contactShadow(width, shadowHeight), left, top: top + height - Math.round(shadowHeight / 2) });
  }
  layers.push({ input: resized, left, top });
  const canvas = sharp({ create: { width: frame.width, height: frame.height, channels: 3, background: parseColour(frame.background) } }).composite(layers).toColourspace('srgb');
  const mimeType = frame.format === 'jpeg' ? 'image/jpeg' : 'image/png';
  // 4:4:4 chroma and a high quality keep the ground exactly the chosen colour up to the product's edge.
  const encoded = frame.format === 'jpeg' ? await canvas.jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer() : await canvas.png().toBuffer();
  const model = packshotEngineName(method);
  return { bytes: await withDigitalSourceType(encoded, mimeType, 'compositeSynthetic', `ModelLoop ${model}`), mimeType, width: frame.width, height: frame.height, model };
}
