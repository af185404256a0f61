// What an image file is by its first bytes, and the limits every decode of an upload keeps to. Nothing here decodes,
// so any function may import it; decoding is decode.ts, which only decoding functions import.

/** Enough leading bytes to tell the accepted types apart (WebP needs 12). */
export const MAGIC_BYTES_LENGTH = 16;

/** The largest image the server decodes (about 10,000 × 10,000); more is refused before decoding. */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** JPEG, PNG or WebP by the file's first bytes (the same test the browser makes before a preview). */
export { detectImageType } from '../../contracts/upload-rules.js';
