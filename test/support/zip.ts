// Reads a whole zip file in tests: the names and bytes of its entries, by its central directory (stored or deflated
// entries, no zip64). Enough to check what "Download all" delivers without another dependency, and strict where an
// unzip tool is: each entry's CRC-32 and size must match its bytes, and a name that is not ASCII must carry flag bit 11
// (UTF-8), or tools read it in "the original ZIP character encoding" (CP437) — PKWARE's APPNOTE.TXT, appendix D.2
// "If general purpose bit 11 is unset, the file name and comment SHOULD conform to the original ZIP character encoding",
// read 2026-11-27.
import { crc32, inflateRawSync } from 'node:zlib';

/** Bit 11 of the general purpose flags: the name (and comment) are UTF-8. */
export const UTF8_NAME_FLAG = 0x0800;

export interface ZipFileEntry {
  name: string;
  /** The general purpose bit flags of the central directory record. */
  flags: number;
  /** 0 stored, 8 deflated. */
  method: number;
  data: Buffer;
}

/** Every entry of `zip` in the order of its central directory; throws on a bad CRC, size or name encoding. */
export function zipEntries(zip: Buffer): ZipFileEntry[] {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('not a zip file: no end of central directory');
  const count = zip.readUInt16LE(endAt + 10);
  let at = zip.readUInt32LE(endAt + 16);
  const entries: ZipFileEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const rawName = zip.subarray(at + 46, at + 46 + nameLength);
    if (!(flags & UTF8_NAME_FLAG) && rawName.some((byte) => byte > 0x7f)) {
      throw new Error(`entry ${i + 1}: a name that is not ASCII without flag bit 11 (UTF-8) reads as CP437 in unzip tools`);
    }
    const name = rawName.toString('utf8');
    if (zip.readUInt32LE(localAt) !== 0x04034b50) throw new Error(`${name}: no local header at ${localAt}`);
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const stored = zip.subarray(dataAt, dataAt + compressedSize);
    const data = method === 0 ? Buffer.from(stored) : inflateRawSync(stored);
    if (data.length !== size) throw new Error(`${name}: ${data.length} bytes, but the central directory says ${size}`);
    const actual = crc32(data) >>> 0;
    if (actual !== crc) throw new Error(`${name}: CRC-32 ${actual.toString(16)} of the bytes, but the central directory says ${crc.toString(16)}`);
    entries.push({ name, flags, method, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The bytes of each entry by name. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  return new Map(zipEntries(zip).map(({ name, data }) => [name, data]));
}
