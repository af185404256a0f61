// The "Download all" zip writer: what an unzip tool reads back, and the length announced before writing it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { storedZipSize, zipStream, type ZipEntry } from '../../lambdas/storage/zip.js';
import { readZip } from '../support/zip.js';

const photo = Buffer.alloc(300_000, 7).map((_, index) => (index * 31) % 251);
const manifest = Buffer.from('entry,item\r\n1,Linen shirt — größe M\r\n', 'utf8');

function entries(): ZipEntry[] {
  return [
    { name: 'manifest.csv', data: async () => manifest, store: true, size: manifest.length },
    // Streamed in uneven chunks, as S3 answers.
    { name: '01-linen-shirt-front.png', data: async () => Readable.from([photo.subarray(0, 1000), photo.subarray(1000, 70_001), photo.subarray(70_001)]), store: true, size: photo.length },
    { name: 'notes.txt', data: async () => Buffer.from('deflated '.repeat(100)) },
  ];
}

describe('zip writer', () => {
  it('writes entries that read back byte for byte, stored and deflated, with UTF-8 names', async () => {
    const zip = await buffer(zipStream(entries()));
    const files = readZip(zip);
    expect([...files.keys()]).toEqual(['manifest.csv', '01-linen-shirt-front.png', 'notes.txt']);
    expect(files.get('manifest.csv')).toEqual(manifest);
    expect(files.get('01-linen-shirt-front.png')!.equals(photo)).toBe(true);
    expect(files.get('notes.txt')!.toString()).toBe('deflated '.repeat(100));
  });

  it('announces the exact length of an archive of stored entries', async () => {
    const stored = entries().slice(0, 2);
    const zip = await buffer(zipStream(stored));
    expect(zip.length).toBe(storedZipSize(stored.map(({ name, size }) => ({ name, size: size! }))));
  });

  it('passes the CRC check of Info-ZIP unzip when it is installed', async () => {
    let unzip = true;
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      unzip = false;
    }
    if (!unzip) return;
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
