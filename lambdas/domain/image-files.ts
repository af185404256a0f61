// What an image file is by its first bytes, and the limits every decode of an upload keeps to. Nothing here decodes,
// so any function may import it; decoding is lambdas/domain/image-decoding.ts, which only decoding functions import.
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
