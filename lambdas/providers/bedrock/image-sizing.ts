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

/**
 * The largest size with (about) the aspect ratio of `size` that satisfies `limits`; grows tiny sizes to the minimum.
 * Growing never passes `maxSide` or `maxPixels`: a picture too thin for both limits keeps a short side under
 * `minSide`, and the caller pads it (padToMinimum).
 */
export function fitWithinLimits(size: Size, limits: SizeLimits): Size {
  const { width, height } = size;
  const ceiling = Math.min(limits.maxSide ? limits.maxSide / Math.max(width, height) : Infinity, Math.sqrt(limits.maxPixels / (width * height)));
  const shrink = Math.min(1, ceiling);
  const grow = Math.min(
    Math.max(1, limits.minSide / Math.min(width, height), Math.sqrt((limits.minPixels ?? 0) / (width * height))),
    Math.max(1, ceiling),
  );
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

/** As resampleToPng, for a photo that was a JPEG: JPEG at quality 95. */
export function resampleToJpeg(bytes: Buffer, size: Size): Promise<Buffer> {
  return sharp(bytes).rotate().resize(size.width, size.height, { fit: 'fill', kernel: sharp.kernel.lanczos3 }).jpeg({ quality: 95 }).toBuffer();
}

/** A provider's image as the ports' output: PNG at exactly `size`. */
export async function toExactOutput(bytes: Buffer, size: Size, fit: 'cover' | 'fill', model: string): Promise<ImageOutput> {
  const png = await resampleToPng(bytes, size, fit);
  return { bytes: png, mimeType: 'image/png', width: size.width, height: size.height, model };
}

/**
 * Pads a picture whose short side is under `minSide` to exactly `minSide` by repeating its edge pixels, centred, so
 * nothing of it is cut and the long side is unchanged.
 */
export async function padToMinimum(bytes: Buffer, minSide: number): Promise<Buffer> {
  const { width, height } = await displaySize(bytes);
  const padX = Math.max(0, minSide - width);
  const padY = Math.max(0, minSide - height);
  if (!padX && !padY) return bytes;
  return sharp(bytes)
    .rotate()
    .extend({ left: Math.floor(padX / 2), right: Math.ceil(padX / 2), top: Math.floor(padY / 2), bottom: Math.ceil(padY / 2), extendWith: 'copy' })
    .png()
    .toBuffer();
}

/** Length of the base64 text of `byteLength` bytes. */
export const base64Length = (byteLength: number): number => Math.ceil(byteLength / 3) * 4;

/**
 * A picture encoded so that its base64 text fits in `maxBase64Chars`. A lossless source (PNG, WebP) stays PNG when
 * that fits; a JPEG source, or a PNG too large, becomes the best JPEG quality that fits (a photo that was JPEG loses
 * nothing a second JPEG at quality 95 would show), and only past the lowest quality a smaller size.
 */
export async function encodeWithin(
  bytes: Buffer,
  maxBase64Chars: number,
  { lossless }: { lossless: boolean },
): Promise<{ mediaType: 'image/png' | 'image/jpeg'; bytes: Buffer }> {
  const meta = await sharp(bytes).metadata();
  const upright = (meta.orientation ?? 1) === 1;
  if (meta.format === 'jpeg' && upright && base64Length(bytes.length) <= maxBase64Chars && !lossless) return { mediaType: 'image/jpeg', bytes };
  if (lossless) {
    const png = meta.format === 'png' && upright ? bytes : await sharp(bytes).rotate().png().toBuffer();
    if (base64Length(png.length) <= maxBase64Chars) return { mediaType: 'image/png', bytes: png };
  }
  const { width, height } = await displaySize(bytes);
  for (let scale = 1; ; scale *= 0.8) {
    const source = sharp(bytes).rotate().resize(Math.round(width * scale), Math.round(height * scale), { kernel: sharp.kernel.lanczos3 });
    for (const quality of JPEG_QUALITIES) {
      const jpeg = await source.clone().flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer();
      if (base64Length(jpeg.length) <= maxBase64Chars) return { mediaType: 'image/jpeg', bytes: jpeg };
    }
  }
}

const JPEG_QUALITIES = [95, 90, 85, 80] as const;
