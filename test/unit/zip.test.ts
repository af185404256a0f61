// The "Download all" zip writer: what an unzip tool reads back, and the length announced before writing it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { storedZipSize, zipStream, type ZipEntry } from '../../lambdas/storage/zip.js';
import { readZip, UTF8_NAME_FLAG, zipEntries } from '../support/zip.js';

const photo = Buffer.alloc(300_000, 7).map((_, index) => (index * 31) % 251);
const manifest = Buffer.from('entry,item\r\n1,Linen shirt — größe M\r\n', 'utf8');

function entries(): ZipEntry[] {
  return [
    { name: 'manifest.csv', data: async () => manifest, store: true, size: manifest.length },
    // Streamed in uneven chunks, as S3 answers.
    { name: '01-linen-shirt-front.png', data: async () => Readable.from([photo.subarray(0, 1000), photo.subarray(1000, 70_001), photo.subarray(70_001)]), store: true, size: photo.length },
    { name: 'notes.txt', data: async () => Buffer.from('deflated '.repeat(100)) },
    { name: '02-chemise-été-größe-M.png', data: async () => Readable.from([photo.subarray(0, 5000)]), store: true, size: 5000 },
  ];
}

describe('zip writer', () => {
  it('writes entries that read back byte for byte, stored and deflated, with UTF-8 names', async () => {
    const zip = await buffer(zipStream(entries()));
    // zipEntries checks each entry's CRC-32 and size against its bytes, and refuses a non-ASCII name without bit 11.
    const read = zipEntries(zip);
    expect(read.map(({ name, method }) => [name, method])).toEqual([
      ['manifest.csv', 0],
      ['01-linen-shirt-front.png', 0],
      ['notes.txt', 8],
      ['02-chemise-été-größe-M.png', 0],
    ]);
    for (const { name, flags } of read) expect(flags & UTF8_NAME_FLAG, name).toBe(UTF8_NAME_FLAG);
    const files = readZip(zip);
    expect(files.get('manifest.csv')).toEqual(manifest);
    expect(files.get('01-linen-shirt-front.png')!.equals(photo)).toBe(true);
    expect(files.get('notes.txt')!.toString()).toBe('deflated '.repeat(100));
    expect(files.get('02-chemise-été-größe-M.png')!.equals(photo.subarray(0, 5000))).toBe(true);
  });

  it('is read by a strict reader only when its CRC-32 values are right', async () => {
    const zip = await buffer(zipStream(entries().slice(0, 1)));
    // The CRC-32 of the one entry sits at byte 16 of its central directory record.
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE((zip.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
    expect(() => readZip(zip)).toThrow(/manifest.csv: CRC-32/);
  });

  it('announces the exact length of an archive of stored entries', async () => {
    const stored = entries().slice(0, 2);
    const zip = await buffer(zipStream(stored));
    expect(zip.length).toBe(storedZipSize(stored.map(({ name, size }) => ({ name, size: size! }))));
  });

  // Info-ZIP unzip is a test dependency (`scripts/system-deps.sh test` installs it): a second, independent reader.
  it('passes the CRC check of Info-ZIP unzip', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'modelloop-zip-'));
    try {
      writeFileSync(join(directory, 'a.zip'), await buffer(zipStream(entries())));
      expect(execFileSync('unzip', ['-t', join(directory, 'a.zip')], { encoding: 'utf8' })).toContain('No errors detected');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('fails rather than write a wrong length when an entry is not the size it was said to be', async () => {
    const wrong: ZipEntry[] = [{ name: 'a.png', data: async () => Readable.from([Buffer.alloc(10)]), store: true, size: 11 }];
    await expect(buffer(zipStream(wrong))).rejects.toThrow(/10 bytes, not the 11/);
  });
});
