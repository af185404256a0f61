// AI provenance in every picture the studio makes: IPTC's DigitalSourceType (IPTC Photo Metadata Standard,
// Iptc4xmpExt:DigitalSourceType, values from the NewsCodes vocabulary cv.iptc.org/newscodes/digitalsourcetype/) in
// the file's XMP packet. Written into the encoded file as it is (a PNG iTXt chunk, a JPEG APP1 segment), so the pixels
// are never encoded again; WebP goes through sharp's withXmp. Stored objects are served and zipped byte for byte, so
// downloads and zips keep it; an upscale is a new picture and gets its own.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

const VOCABULARY = 'http://cv.iptc.org/newscodes/digitalsourcetype/';

/**
 * The terms the studio uses (definitions quoted from the IPTC vocabulary):
 * - trainedAlgorithmicMedia, "Digital media created algorithmically using a model derived from sampled content": a
 *   generative provider's on-model photo;
 * - compositeWithTrainedAlgorithmicMedia, "Mix or composite of several elements, at least one of which is trained
 *   algorithmic media": a generative provider's edit of a photo;
 * - compositeSynthetic, "Mix or composite of several elements, at least one of which is synthetic": the preview
 *   engine's composite (the product photo on a drawn figure or ground) and a packshot (the photographed product on a
 *   synthetic ground and shadow);
 * - algorithmicallyEnhanced, "Minor augmentation or correction by algorithm": an upscale (ESRGAN or Lanczos).
 */
export const DIGITAL_SOURCE_TYPES = ['trainedAlgorithmicMedia', 'compositeWithTrainedAlgorithmicMedia', 'compositeSynthetic', 'algorithmicallyEnhanced'] as const;
export type DigitalSourceType = (typeof DIGITAL_SOURCE_TYPES)[number];

export const digitalSourceTypeUri = (type: DigitalSourceType): string => `${VOCABULARY}${type}`;

function xmpPacket(type: DigitalSourceType, creatorTool: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"' +
    ` Iptc4xmpExt:DigitalSourceType="${digitalSourceTypeUri(type)}" xmp:CreatorTool="${escape(creatorTool)}"/>` +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';
const JPEG_XMP_NAMESPACE = 'http://ns.adobe.com/xap/1.0/\0';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG with one XMP iTXt chunk (any earlier one dropped), right after IHDR. */
function pngWithXmp(png: Buffer, xmp: string): Buffer {
  const parts: Buffer[] = [PNG_SIGNATURE];
  let offset = PNG_SIGNATURE.length;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    const data = png.subarray(offset + 8, offset + 8 + length);
    const isXmp = type === 'iTXt' && data.subarray(0, PNG_XMP_KEYWORD.length + 1).toString('latin1') === `${PNG_XMP_KEYWORD}\0`;
    if (!isXmp) parts.push(png.subarray(offset, end));
    if (type === 'IHDR') parts.push(pngChunk('iTXt', Buffer.concat([Buffer.from(`${PNG_XMP_KEYWORD}\0\0\0\0\0`, 'latin1'), Buffer.from(xmp, 'utf8')])));
    offset = end;
  }
  return Buffer.concat(parts);
}

/** The JPEG with one XMP APP1 segment (any earlier one dropped), after SOI and a JFIF APP0. */
function jpegWithXmp(jpeg: Buffer, xmp: string): Buffer {
  const payload = Buffer.concat([Buffer.from(JPEG_XMP_NAMESPACE, 'latin1'), Buffer.from(xmp, 'utf8')]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  let inserted = false;
  // Walk the marker segments before the image data: APPn and the like have a length; SOS starts the scan.
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1]!;
    if (marker === 0xda) break;
    const end = offset + 2 + jpeg.readUInt16BE(offset + 2);
    const isXmp = marker === 0xe1 && jpeg.subarray(offset + 4, offset + 4 + JPEG_XMP_NAMESPACE.length).toString('latin1') === JPEG_XMP_NAMESPACE;
    if (!inserted && marker !== 0xe0) {
      parts.push(segment);
      inserted = true;
    }
    if (!isXmp) parts.push(jpeg.subarray(offset, end));
    offset = end;
  }
  if (!inserted) parts.push(segment);
  parts.push(jpeg.subarray(offset));
  return Buffer.concat(parts);
}

/** The encoded picture with its DigitalSourceType (and the tool that made it) in XMP; the pixels are untouched. */
export async function withDigitalSourceType(bytes: Buffer, mimeType: string, type: DigitalSourceType, creatorTool: string): Promise<Buffer> {
  const xmp = xmpPacket(type, creatorTool);
  if (mimeType === 'image/png') return pngWithXmp(bytes, xmp);
  if (mimeType === 'image/jpeg') return jpegWithXmp(bytes, xmp);
  if (mimeType === 'image/webp') return sharp(bytes).keepIccProfile().withXmp(xmp).webp({ lossless: true }).toBuffer();
  return bytes;
}

/** The DigitalSourceType term in a picture's XMP, or null when it has none. */
export async function readDigitalSourceType(bytes: Buffer): Promise<DigitalSourceType | null> {
  const { xmp } = await sharp(bytes).metadata();
  const text = xmp?.toString('utf8') ?? '';
  const found = /DigitalSourceType(?:="|>)\s*([^"<\s]+)/.exec(text)?.[1];
  if (!found) return null;
  const term = found.startsWith(VOCABULARY) ? found.slice(VOCABULARY.length) : found;
  return (DIGITAL_SOURCE_TYPES as readonly string[]).includes(term) ? (term as DigitalSourceType) : null;
}
