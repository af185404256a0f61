// IPTC DigitalSourceType in XMP without decoding anything (no sharp): the vocabulary, the packet, writing it into a
// PNG, a JPEG or an MP4 as they are encoded, and reading the term back. ISO BMFF files carry XMP in a top-level
// 'uuid' box of the XMP UUID BE7ACFCB-97A9-42E8-9C71-999491E3AFAC (XMP Specification Part 3, "Storage in files": MPEG-4); it is appended after
// the file's last box, so no offset inside the file moves and players skip it as an unknown box. The vocabulary's
// terms describe "digital media" of any kind, and IPTC's Video Metadata Hub names XMP as the way to embed its
// properties in a video file, so a video carries the same property as a picture.
import { crc32 } from 'node:zlib';

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

export function xmpPacket(type: DigitalSourceType, creatorTool: string): string {
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
export function pngWithXmp(png: Buffer, xmp: string): Buffer {
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
export function jpegWithXmp(jpeg: Buffer, xmp: string): Buffer {
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

/** The DigitalSourceType term an XMP packet's text names, or null. */
export function digitalSourceTypeIn(text: string): DigitalSourceType | null {
  const found = /DigitalSourceType(?:="|>)\s*([^"<\s]+)/.exec(text)?.[1];
  if (!found) return null;
  const term = found.startsWith(VOCABULARY) ? found.slice(VOCABULARY.length) : found;
  return (DIGITAL_SOURCE_TYPES as readonly string[]).includes(term) ? (term as DigitalSourceType) : null;
}

const XMP_UUID = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex');

/** The top-level boxes of an ISO BMFF file (MP4), or undefined when the bytes are not one (no leading 'ftyp'). */
function topLevelBoxes(file: Buffer): Array<{ type: string; start: number; end: number }> | undefined {
  if (file.length < 8 || file.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const boxes: Array<{ type: string; start: number; end: number }> = [];
  let offset = 0;
  while (offset + 8 <= file.length) {
    let size = file.readUInt32BE(offset);
    if (size === 1 && offset + 16 <= file.length) size = Number(file.readBigUInt64BE(offset + 8));
    else if (size === 0) size = file.length - offset;
    if (size < 8 || offset + size > file.length) break;
    boxes.push({ type: file.toString('latin1', offset + 4, offset + 8), start: offset, end: offset + size });
    offset += size;
  }
  return boxes;
}

const isXmpBox = (file: Buffer, box: { type: string; start: number }) => box.type === 'uuid' && file.subarray(box.start + 8, box.start + 24).equals(XMP_UUID);

/** The MP4 with one XMP uuid box (any earlier one dropped) after its last box; other bytes are returned unchanged. */
export function mp4WithXmp(file: Buffer, xmp: string): Buffer {
  const boxes = topLevelBoxes(file);
  if (!boxes) return file;
  const payload = Buffer.from(xmp, 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + XMP_UUID.length + payload.length, 0);
  head.write('uuid', 4, 'latin1');
  const kept = boxes.filter((box) => !isXmpBox(file, box)).map((box) => file.subarray(box.start, box.end));
  return Buffer.concat([...kept, head, XMP_UUID, payload]);
}

/** An MP4's DigitalSourceType: the term, null when it has no XMP box naming one, undefined when the bytes are no MP4. */
export function mp4DigitalSourceType(file: Buffer): DigitalSourceType | null | undefined {
  const boxes = topLevelBoxes(file);
  if (!boxes) return undefined;
  const box = boxes.find((candidate) => isXmpBox(file, candidate));
  return box ? digitalSourceTypeIn(file.toString('utf8', box.start + 24, box.end)) : null;
}
