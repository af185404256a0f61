// A packshot: the product cut out of its photo (the cutout network on a busy background, colour distance on a plain
// one: cutout.ts), centred on a plain ground at the preset's fill, with an optional soft contact shadow, at the exact
// pixel size, sRGB, in the preset's format, with its provenance in XMP. Real on both hosts (nothing in it is a
// preview): no mark is drawn, and the result names the engine that made it.
import sharp, { type OverlayOptions } from 'sharp';
import { PACKSHOT_ENGINE, type PackshotFrame } from '../../contracts/marketplace.js';
import type { ProductType } from '../../contracts/catalog.js';
import { cutOutProduct, type Cutout, type CutoutKind } from '../../providers/local-engine/cutout.js';
import { decodeRgba, openImage, openRgba } from '../../providers/local-engine/raster.js';
import { SEGMENTATION_MODEL } from '../../providers/local-engine/segmentation.js';
import { withDigitalSourceType } from '../images/provenance.js';
import { PRODUCT_CUTOUT_MAX_SIDE } from '../../providers/local-engine/product-photo.js';

/** The photo is cut out at the size every product photo is cut out at, on-model pictures' too (product-photo.ts). */
const CUTOUT_MAX_SIDE = PRODUCT_CUTOUT_MAX_SIDE;
/** The contact shadow: its height as a share of the product's, and its darkest opacity. */
const SHADOW_HEIGHT_SHARE = 0.06;
const SHADOW_OPACITY = 0.35;

/** ai_model of a packshot: the engine and how it cut the product out (the seller's refined mask: 'refined-mask'). */
export const packshotEngineName = (method: Cutout['method']) =>
  `${PACKSHOT_ENGINE}:${method === 'network' ? SEGMENTATION_MODEL.name.toLowerCase() : method === 'edited' ? 'refined-mask' : 'colour-key'}`;

/** What the packshot's cutout measured of itself, for the compliance report's cutout rules (compliance.ts). */
export interface PackshotCutout {
  /** The product's source pixels (its longer side, in the photo as uploaded) and its longer side in the frame. */
  sourceSide: number;
  frameSide: number;
  /** The product's share of the photo's area. */
  areaShare: number;
  /** The share of the product's outline where the network was unsure (absent for a colour cut or a seller's mask). */
  unsureOutline?: number;
}

export interface Packshot {
  bytes: Buffer;
  mimeType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  model: string;
  cutout: PackshotCutout;
  /** The mask the product was cut out by (PNG, one channel, white = product), at the size the photo was cut out at. */
  mask: { png: Buffer; width: number; height: number; edited: boolean };
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

/** The size a photo is cut out at (its own, shrunk to CUTOUT_MAX_SIDE): a seller's mask is drawn at this size. */
export async function cutoutSizeOf(photo: Buffer): Promise<{ width: number; height: number }> {
  const { info } = await openImage(photo).resize({ width: CUTOUT_MAX_SIDE, height: CUTOUT_MAX_SIDE, fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height };
}

/** A seller's mask (PNG) as opacity per pixel at `size` (white = product); resized when drawn at another size. */
async function maskAlpha(png: Buffer, size: { width: number; height: number }): Promise<Uint8Array> {
  const plane = await sharp(png).flatten({ background: '#000000' }).greyscale().resize(size.width, size.height, { fit: 'fill', kernel: 'nearest' }).extractChannel(0).raw().toBuffer();
  return new Uint8Array(plane.buffer, plane.byteOffset, size.width * size.height);
}

export interface PackshotOptions {
  productType?: ProductType;
  shadow?: boolean;
  /** The seller's refined mask (PNG, white = product): the product is cut out by it instead of the automatic cutout. */
  mask?: Buffer;
}

export async function renderPackshot(photo: Buffer, frame: PackshotFrame, options: PackshotOptions = {}): Promise<Packshot> {
  const image = await decodeRgba(photo, CUTOUT_MAX_SIDE);
  const edited = options.mask ? await maskAlpha(options.mask, image) : undefined;
  const { product, method, quality, alpha } = await cutOutProduct(image, options.productType ? KIND_OF[options.productType] : 'any', edited);
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
  // The photo may have been shrunk to be cut out: its product had this many more pixels as uploaded.
  const { width: uploadedWidth = image.width, height: uploadedHeight = image.height } = await sharp(photo).metadata();
  const shrunk = Math.max(uploadedWidth, uploadedHeight) / Math.max(image.width, image.height);
  const cutout: PackshotCutout = {
    sourceSide: Math.round(Math.max(quality.box.width, quality.box.height) * shrunk),
    frameSide: Math.max(width, height),
    areaShare: quality.areaShare,
    ...(quality.unsureOutline === undefined || method !== 'network' ? {} : { unsureOutline: quality.unsureOutline }),
  };
  const mask = { png: await sharp(Buffer.from(alpha), { raw: { width: image.width, height: image.height, channels: 1 } }).png({ compressionLevel: 9 }).toBuffer(), width: image.width, height: image.height, edited: Boolean(edited) };
  return { bytes: await withDigitalSourceType(encoded, mimeType, 'compositeSynthetic', `ModelLoop ${model}`), mimeType, width: frame.width, height: frame.height, model, cutout, mask };
}
