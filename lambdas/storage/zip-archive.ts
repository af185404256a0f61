// A zip written straight into an object, its entries added one at a time (each copied stream to stream before the
// next one is opened, so no file is held in memory). The one zip writer of the functions: "Download all" of a batch
// and "Download my data" both use it, so replacing the library is a change here only.
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { BucketName } from '../data/tables.js';
import { writeObjectStream } from './objects.js';

export const ZIP_TYPE = 'application/zip';

export interface ZipEntry {
  /** The path inside the zip. */
  name: string;
  /** Opened when the entry's turn comes. */
  content: () => Promise<Readable | string | Buffer>;
  /** Stored without deflating (files compressed already: PNG, JPEG, MP4). */
  store?: boolean;
}

export async function writeZipObject(bucket: BucketName, key: string, entries: Iterable<ZipEntry>, options: { expiresAfterADay?: boolean } = {}): Promise<void> {
  const { ZipArchive } = await import('archiver');
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const body = new PassThrough();
  zip.pipe(body);
  const upload = writeObjectStream(bucket, key, body, ZIP_TYPE, options);
  const failed = new Promise<never>((_, reject) => {
    zip.on('error', reject);
    upload.catch(reject);
  });
  for (const entry of entries) {
    const added = once(zip, 'entry');
    zip.append(await entry.content(), { name: entry.name, store: entry.store ?? false });
    await Promise.race([added, failed]);
  }
  await Promise.race([Promise.all([zip.finalize(), upload]), failed]);
}
