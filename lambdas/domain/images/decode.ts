// Whether an image file really is what it claims, from its bytes: the type by magic bytes, a header that agrees, and
// pixel data that decodes completely. Every upload the server accepts (clothing items, generation and video sources)
// goes through here, whatever the client claimed.
//
// This is the one module of the request path that decodes pictures, and sharp (libvips, about 21 MB of native
// packages) is what decodes them: only the functions that decode import this module, and synth ships sharp's packages
// (and the x86_64 architecture) only to functions whose bundle imports sharp (lib/native-modules.ts). sharp is loaded
// at the first decode, not with the module: a route that decodes only some requests (an inline or uploaded image,
// not a library item) starts as fast as one that never decodes.
import type sharpFunction from 'sharp';
import type { Sharp as SharpImage } from 'sharp';
import type { ImageMimeType } from '../../contracts/api.js';
import { detectImageType, MAX_IMAGE_PIXELS } from './file-type.js';

type Sharp = typeof sharpFunction;

let sharpModule: Promise<Sharp> | undefined;

/** sharp, imported on first use and then kept for the container's life. */
export function loadSharp(): Promise<Sharp> {
  return (sharpModule ??= import('sharp').then((module) => module.default as Sharp));
}

const SHARP_FORMATS: Record<ImageMimeType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

/** The check decodes into a picture this many times narrower (JPEG's scaled decode goes down to an eighth). */
const CHECK_SHRINK = 8;

/** A picture's pixels as the check decoded them when asked: upright (its EXIF orientation applied), RGB, 8 bits. */
export interface DecodedPixels {
  data: Buffer;
  width: number;
  height: number;
}

export type ImageCheck =
  | { ok: true; mimeType: ImageMimeType; width: number; height: number; pixels?: DecodedPixels; thumbnail?: Buffer }
  | { ok: false; reason: 'not-an-image' | 'too-many-pixels' | 'undecodable' };

/**
 * What a check may keep of its decode: the picture's pixels, upright, within `pixelsWithin` px on each side; or its
 * thumbnail, upright, covering `thumbnailCovering` (never enlarged), as WebP with the picture's transparency kept.
 */
export interface CheckOptions {
  pixelsWithin?: number;
  thumbnailCovering?: { width: number; height: number };
}

/** WebP quality of thumbnails: a 384×512 tile of a 12 MP phone photo is about 30–90 KB. */
const THUMBNAIL_QUALITY = 80;

/**
 * The pipeline that turns a decoded picture into upright RGB pixels within `side` px on each side (never enlarged):
 * the check's decode when its pixels are kept, and the face count's own decode of bytes, so both see the same pixels.
 */
export function uprightPixelsWithin(image: SharpImage, side: number): SharpImage {
  return image.rotate().resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).removeAlpha().toColourspace('srgb').raw();
}

/**
 * Checks a whole file: an accepted type by magic bytes, a header that agrees, at most MAX_IMAGE_PIXELS, and pixel
 * data that decodes to the end (a truncated or corrupt file fails). The decode streams through the image into a
 * picture an eighth of its width, so memory stays bounded by the file, not by its pixel count. With `pixelsWithin`,
 * the same single decode makes the picture upright and at most that many pixels on each side instead, and the check
 * returns those pixels: a caller that looks at the picture (a portrait's face count) needs no second read or decode.
 */
export async function checkImageBytes(bytes: Buffer, { pixelsWithin, thumbnailCovering }: CheckOptions = {}): Promise<ImageCheck> {
  const mimeType = detectImageType(bytes);
  if (!mimeType) return { ok: false, reason: 'not-an-image' };
  const sharp = await loadSharp();
  const options = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true } as const;
  let width: number;
  let height: number;
  /** The picture's size upright (EXIF orientation applied): what the studio reports and sizes results from. */
  let upright: { width: number; height: number };
  try {
    const metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
    if (metadata.format !== SHARP_FORMATS[mimeType] || !metadata.width || !metadata.height) return { ok: false, reason: 'undecodable' };
    ({ width, height } = metadata);
    upright = metadata.autoOrient;
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
  if (width * height > MAX_IMAGE_PIXELS) return { ok: false, reason: 'too-many-pixels' };
  try {
    // Every byte of the pixel data is decoded, but a JPEG or WebP is rebuilt at an eighth of its size by its decoder's
    // own scaled decode (shrink-on-load), and a truncated or corrupt file fails all the same. A 12 MP phone JPEG's check
    // took 0.19 s against 0.9–1.4 s decoded whole, and a model saved with it as its portrait 0.55 s against 1.15 s
    // (bench/portrait-upload.ts, 2 busy cores, November 2026).
    if (thumbnailCovering) {
      // The thumbnail is the check's decode: shrink-on-load decodes every byte at the largest scale that still
      // covers the box, so a truncated file fails here too and a 12 MP photo costs about what the plain check does.
      const thumbnail = await sharp(bytes, options)
        .rotate()
        .resize({ ...thumbnailCovering, fit: 'outside', withoutEnlargement: true })
        .webp({ quality: THUMBNAIL_QUALITY })
        .toBuffer();
      return { ok: true, mimeType, ...upright, thumbnail };
    }
    if (pixelsWithin === undefined) {
      await sharp(bytes, options).resize({ width: Math.ceil(width / CHECK_SHRINK) }).raw().toBuffer();
      return { ok: true, mimeType, ...upright };
    }
    // Within a few hundred pixels, the decode of a large JPEG or WebP shrinks on load all the same (a 12 MP phone
    // photo within 512 px is decoded at a quarter of its size); a small picture is kept as it is.
    const { data, info } = await uprightPixelsWithin(sharp(bytes, options), pixelsWithin).toBuffer({ resolveWithObject: true });
    return { ok: true, mimeType, ...upright, pixels: { data, width: info.width, height: info.height } };
  } catch {
    return { ok: false, reason: 'undecodable' };
  }
}
