// What an image file really is, from its bytes: the type by magic bytes, and whether it decodes completely.
// Every upload the server accepts (clothing items, generation sources) goes through here, whatever the client claimed.
import sharp from 'sharp';
import type { ImageMimeType } from '../contracts/api.js';

/** Enough leading bytes to tell the accepted types apart (WebP needs 12). */
export const MAGIC_BYTES_LENGTH = 16;

/** The largest image the server decodes (about 10,000 × 10,000); more is refused before decoding. */
export const MAX_IMAGE_PIXELS = 100_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** JPEG, PNG or WebP by the file's first bytes; undefined for anything else. */
export function detectImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

const SHARP_FORMATS: Record<ImageMimeType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

export type ImageCheck =
  | { ok: true; mimeType: ImageMimeType; width: number; height: number }
  | { ok: false; reason: 'not-an-image' | 'too-many-pixels' | 'undecodable' };

/**
 * Checks a whole file: an accepted type by magic bytes, a header that agrees, at most MAX_IMAGE_PIXELS, and pixel
 * data that decodes to the end (a truncated or corrupt file fails). The decode streams through the image
 * (statistics of every pixel), so memory stays bounded by the file, not by its pixel count.
 */
export async function checkImageBytes(bytes: Buffer): Promise<ImageCheck> {
  const mimeType = detectImageType(bytes);
  if (!mimeType) return { ok: false, reason: 'not-an-image' };
  const options = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true } as const;
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMATS[mimeType] || !metadata.width || !metadata.height) return { ok: false, reason: 'undecodable' };
    ({ width, height } = metadata);
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  if (width * height > MAX_IMAGE_PIXELS) return { ok: false, reason: 'too-many-pixels' };
  try {
    await sharp(bytes, options).stats();
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  return { ok: true, mimeType, width, height };
}
