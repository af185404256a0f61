// Pixel geometry and resampling shared by the cloud adapters: fitting an image into a provider's documented
// limits before the call, and resampling the provider's answer to the exact size the port promises.
import sharp from 'sharp';
import type { ImageOutput, Size } from '../ports.js';

export interface SizeLimits {
  minSide: number;
  maxSide?: number;
  minPixels?: number;
  maxPixels: number;
}

/** The largest size with (about) the aspect ratio of `size` that satisfies `limits`; grows tiny sizes to the minimum. */
export function fitWithinLimits(size: Size, limits: SizeLimits): Size {
  const { width, height } = size;
  const shrink = Math.min(
    1,
    limits.maxSide ? limits.maxSide / Math.max(width, height) : 1,
    Math.sqrt(limits.maxPixels / (width * height)),
  );
  const grow = Math.max(1, limits.minSide / Math.min(width, height), Math.sqrt((limits.minPixels ?? 0) / (width * height)));
  const scale = shrink < 1 ? shrink : grow;
  const round = scale < 1 ? Math.floor : Math.ceil;
  return { width: Math.max(1, round(width * scale)), height: Math.max(1, round(height * scale)) };
}

/** Width and height as displayed, i.e. after the EXIF orientation is applied. */
export async function displaySize(bytes: Buffer): Promise<Size & { needsRotation: boolean }> {
  const meta = await sharp(bytes).metadata();
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!width || !height) throw new Error('image without dimensions');
  return rotated
    ? { width: height, height: width, needsRotation: true }
    : { width, height, needsRotation: (meta.orientation ?? 1) !== 1 };
}

/**
 * Lanczos resample to exactly `size`, as PNG. `cover` keeps the aspect ratio and trims the overflow evenly;
 * `fill` stretches (used where the aspect ratio already matches up to rounding).
 */
export function resampleToPng(bytes: Buffer, size: Size, fit: 'cover' | 'fill'): Promise<Buffer> {
  return sharp(bytes)
    .rotate()
    .resize(size.width, size.height, { fit, kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
}

/** A provider's image as the ports' output: PNG at exactly `size`. */
export async function toExactOutput(bytes: Buffer, size: Size, fit: 'cover' | 'fill', model: string): Promise<ImageOutput> {
  const png = await resampleToPng(bytes, size, fit);
  return { bytes: png, mimeType: 'image/png', width: size.width, height: size.height, model };
}
