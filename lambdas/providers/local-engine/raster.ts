// Decoding and encoding for the local engine: every input is auto-oriented (EXIF) sRGB; every output a PNG labelled
// with the engine's model name.
import sharp, { type Sharp } from 'sharp';
import { PREVIEW_ENGINE_MODEL } from '../../contracts/preview.js';
import type { ImageOutput } from '../ports.js';

/** Every result of the engine says it is a preview (no AI model made it). */
export const LOCAL_ENGINE_MODEL = PREVIEW_ENGINE_MODEL;

/** Straight (not premultiplied) RGBA pixels, row by row. */
export interface RgbaImage {
  data: Buffer;
  width: number;
  height: number;
}

export function openImage(bytes: Buffer): Sharp {
  return sharp(bytes).autoOrient();
}

export function openRgba(image: RgbaImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

export async function toRgba(pipeline: Sharp): Promise<RgbaImage> {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Decodes to sRGB pixels; `maxSide` shrinks a larger picture first (never enlarges). */
export async function decodeRgba(bytes: Buffer, maxSide?: number): Promise<RgbaImage> {
  const image = openImage(bytes);
  if (maxSide) image.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' });
  return toRgba(image.toColourspace('srgb'));
}

/** `notRendered`: what the request asked for that the engine could not show (listed under the result). */
export async function toImageOutput(pipeline: Sharp, notRendered?: string[]): Promise<ImageOutput> {
  const { data, info } = await pipeline.png().toBuffer({ resolveWithObject: true });
  return {
    bytes: data,
    mimeType: 'image/png',
    width: info.width,
    height: info.height,
    model: LOCAL_ENGINE_MODEL,
    ...(notRendered?.length ? { notRendered } : {}),
  };
}

/** Encodes pixels as PNG, without the alpha channel when every pixel is opaque (smaller). */
export async function encodeRgba(image: RgbaImage, notRendered?: string[]): Promise<ImageOutput> {
  let opaque = true;
  for (let i = 3; i < image.data.length && opaque; i += 4) opaque = image.data[i] === 255;
  return toImageOutput(opaque ? openRgba(image).removeAlpha() : openRgba(image), notRendered);
}

/** A one-channel plane (a mask or a probability map) resized to `width`×`height` with Lanczos. */
export async function resizePlane(plane: Uint8Array, from: { width: number; height: number }, width: number, height: number): Promise<Uint8Array> {
  // A 1-channel raw buffer comes back from a resize as 3 channels unless one is extracted (DESIGN §10).
  const resized = await sharp(Buffer.from(plane.buffer, plane.byteOffset, plane.length), { raw: { width: from.width, height: from.height, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return new Uint8Array(resized.buffer, resized.byteOffset, width * height);
}
