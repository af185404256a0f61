// A streaming zip writer, small on purpose: "Download all" needs stored PNGs (compressed already) and one small
// deflated manifest, written front to back into an upload stream without holding the photos in memory. Each entry's
// local header is followed by its data and a data descriptor (its CRC-32 and sizes are known only once the data has
// streamed through), then the central directory. No zip64: an archive past 4 GB or 65,535 entries is refused.
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the archive (UTF-8). */
  name: string;
  /** The bytes: a buffer (deflated unless `store`) or a stream (always stored). Opened only when its turn comes. */
  data: () => Promise<Buffer | Readable>;
  store?: boolean;
  /** The length the data must have (a stored entry whose size was read first): another length fails the archive. */
  size?: number;
}

/** The exact length of a zip of stored entries of these names and sizes, as zipStream writes it. */
export function storedZipSize(entries: { name: string; size: number }[]): number {
  return entries.reduce((total, { name, size }) => {
    const nameBytes = Buffer.byteLength(name, 'utf8');
    return total + (30 + nameBytes + size + 16) + (46 + nameBytes);
  }, 22);
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const VERSION = 20;
const STORED = 0;
const DEFLATED = 8;
const MAX_32 = 0xffffffff;

/** MS-DOS time and date of a moment (local fields, two-second resolution), as zip headers carry them. */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getFullYear(), 1980);
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

async function* zipChunks(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, now: Date): AsyncGenerator<Buffer> {
  const { time, date } = dosDateTime(now);
  const written: Written[] = [];
  let offset = 0;
  const guard = (value: number) => {
    if (value > MAX_32) throw new Error('The archive would pass 4 GB, which needs zip64');
    return value;
  };
  for await (const entry of entries) {
    if (written.length === 0xffff) throw new Error('The archive would hold more than 65,535 entries, which needs zip64');
    const name = Buffer.from(entry.name, 'utf8');
    const source = await entry.data();
    const method = Buffer.isBuffer(source) && !entry.store ? DEFLATED : STORED;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    // CRC-32 and both sizes stay 0 here: the data descriptor carries them.
    header.writeUInt16LE(name.length, 26);
    const record: Written = { name, method, crc: 0, compressedSize: 0, size: 0, offset };
    yield Buffer.concat([header, name]);
    offset += header.length + name.length;

    if (Buffer.isBuffer(source)) {
      const body = method === DEFLATED ? deflateRawSync(source) : source;
      record.crc = crc32(source);
      record.size = source.length;
      record.compressedSize = body.length;
      yield body;
    } else {
      for await (const chunk of source) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        record.crc = crc32(bytes, record.crc);
        record.size += bytes.length;
        yield bytes;
      }
      record.compressedSize = record.size;
    }
    if (entry.size !== undefined && record.size !== entry.size) throw new Error(`${entry.name} had ${record.size} bytes, not the ${entry.size} expected`);
    offset = guard(offset + record.compressedSize);
    guard(record.size);
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(record.crc >>> 0, 4);
    descriptor.writeUInt32LE(record.compressedSize, 8);
    descriptor.writeUInt32LE(record.size, 12);
    yield descriptor;
    offset = guard(offset + descriptor.length);
    written.push(record);
  }

  const directoryAt = offset;
  for (const record of written) {
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(FLAGS, 8);
    central.writeUInt16LE(record.method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(record.crc >>> 0, 16);
    central.writeUInt32LE(record.compressedSize, 20);
    central.writeUInt32LE(record.size, 24);
    central.writeUInt16LE(record.name.length, 28);
    // extra, comment, disk, attributes: none.
    central.writeUInt32LE(record.offset, 42);
    yield Buffer.concat([central, record.name]);
    offset = guard(offset + central.length + record.name.length);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(offset - directoryAt, 12);
  end.writeUInt32LE(directoryAt, 16);
  yield end;
}

/** The zip of `entries` as a stream; it pulls each entry's data only as the reader consumes the archive. */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, now = new Date()): Readable {
  return Readable.from(zipChunks(entries, now), { objectMode: false });
}
