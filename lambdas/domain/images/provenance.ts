// AI provenance in every picture the studio makes: IPTC's DigitalSourceType (IPTC Photo Metadata Standard,
// Iptc4xmpExt:DigitalSourceType, values from the NewsCodes vocabulary cv.iptc.org/newscodes/digitalsourcetype/) in
// the file's XMP packet. Written into the encoded file as it is (a PNG iTXt chunk, a JPEG APP1 segment), so the pixels
// are never encoded again; WebP goes through sharp's withXmp. Stored objects are served and zipped byte for byte, so
// downloads and zips keep it; an upscale is a new picture and gets its own.
import sharp from 'sharp';
import { digitalSourceTypeIn, jpegWithXmp, mp4DigitalSourceType, mp4WithXmp, pngWithXmp, xmpPacket, type DigitalSourceType } from './xmp.js';

export { DIGITAL_SOURCE_TYPES, digitalSourceTypeUri, type DigitalSourceType } from './xmp.js';

/** The encoded picture (or MP4 video) with its DigitalSourceType (and the tool that made it) in XMP; the pixels are untouched. */
export async function withDigitalSourceType(bytes: Buffer, mimeType: string, type: DigitalSourceType, creatorTool: string): Promise<Buffer> {
  const xmp = xmpPacket(type, creatorTool);
  if (mimeType === 'image/png') return pngWithXmp(bytes, xmp);
  if (mimeType === 'image/jpeg') return jpegWithXmp(bytes, xmp);
  if (mimeType === 'image/webp') return sharp(bytes).keepIccProfile().withXmp(xmp).webp({ lossless: true }).toBuffer();
  if (mimeType === 'video/mp4') return mp4WithXmp(bytes, xmp);
  return bytes;
}

/** The DigitalSourceType term in a picture's (or an MP4's) XMP, or null when it has none. */
export async function readDigitalSourceType(bytes: Buffer): Promise<DigitalSourceType | null> {
  const mp4 = mp4DigitalSourceType(bytes);
  if (mp4 !== undefined) return mp4;
  const { xmp } = await sharp(bytes).metadata();
  return digitalSourceTypeIn(xmp?.toString('utf8') ?? '');
}
