// The one size a product photo is cut out at, wherever the product appears: the packshot engine's packshots, the
// preview engine's on-model pictures and a batch's shots (issue 49 item 3). The cutout network's refinement is not
// scale-free: "Emerald drop necklace" as a 4000×5000 phone photo with a thin chain (15 px) kept its chain's whole
// reach cut out at 1600 px (5.5 pendant widths across, 3.1 pendant heights above it) and lost most of it at 3072 px,
// where on-model pictures were cut (3.1 across, 1.7 above), the pendant then drawn larger across the chest
// (test/unit/local-engine.test.ts). So every caller cuts at this size, the packshot's, with the product's own kind.
import { decodeRgba, type RgbaImage } from './raster.js';

/** A product photo is cut out at most this large (the network sees 320 px; colour distance costs per pixel). */
export const PRODUCT_CUTOUT_MAX_SIDE = 1600;

/** A product photo decoded for its cutout: upright, sRGB, shrunk to PRODUCT_CUTOUT_MAX_SIDE. */
export function decodeProductPhoto(bytes: Buffer): Promise<RgbaImage> {
  return decodeRgba(bytes, PRODUCT_CUTOUT_MAX_SIDE);
}
