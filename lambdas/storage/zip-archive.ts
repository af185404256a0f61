// A zip written straight into an object: "Download all" of a batch and "Download my data" both use it. Every entry
// is stored (pictures and videos are compressed already, the text files are small), so the zip's exact length is known
// before it is written and it streams up in one PUT, each entry opened only when its turn comes (storage/zip.ts).
import type { Readable } from 'node:stream';
import type { BucketName } from '../data/tables.js';
import { putObjectStream } from './object-transfer.js';
import { storedZipSize, zipStream } from './zip.js';

export const ZIP_TYPE = 'application/zip';

export interface ZipFile {
  /** The path inside the zip. */
  name: string;
  /** The exact length of the data (a stored file's size, read first). */
  size: number;
  data: () => Promise<Buffer | Readable>;
}

/** A small text file of the zip (a manifest, a JSON or CSV export). */
export function textFile(name: string, text: string): ZipFile {
  const bytes = Buffer.from(text, 'utf8');
  return { name, size: bytes.length, data: async () => bytes };
}

/** `expiresAfterADay`: tagged like a pending upload, so the bucket's lifecycle rule removes it after a day. */
export async function writeZipObject(bucket: BucketName, key: string, files: ZipFile[], options: { expiresAfterADay?: boolean } = {}): Promise<void> {
  const length = storedZipSize(files);
  await putObjectStream(bucket, key, zipStream(files.map((file) => ({ ...file, store: true }))), length, ZIP_TYPE, options);
}
