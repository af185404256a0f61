// The abandoned-uploads lifecycle rule of the cloud's buckets, run by the twin: s3rver has no lifecycle rules. Uploads
// are created tagged `upload=pending` (the presigned PUT signs the tag header; lib/local/s3-local.ts stores it as S3
// does) and tagged `upload=kept` when a route takes them; an object still pending ABANDONED_UPLOAD_DAYS after it was
// stored is removed, exactly what the rule in lib/constructs/storage.ts matches. The twin runs it at start and hourly.
import { DeleteObjectCommand, GetObjectTaggingCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ABANDONED_UPLOAD_DAYS, UPLOAD_TAG } from '../../lambdas/data/tables.js';

export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60_000;
export const ABANDONED_UPLOAD_MS = ABANDONED_UPLOAD_DAYS * 24 * 60 * 60_000;

export interface UploadSweepOptions {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Physical bucket names. */
  buckets: string[];
  /** Only keys under these prefixes (a test sweeps its own users' folders); default: every key. */
  prefixes?: string[];
  /** The sweep's clock (a test moves it forward instead of waiting a day). */
  now?: number;
}

export interface SweptObject {
  bucket: string;
  key: string;
}

export async function sweepAbandonedUploads(options: UploadSweepOptions): Promise<SweptObject[]> {
  const s3 = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    credentials: options.credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const cutoff = (options.now ?? Date.now()) - ABANDONED_UPLOAD_MS;
  const removed: SweptObject[] = [];
  try {
    for (const bucket of options.buckets) {
      for (const prefix of options.prefixes ?? ['']) {
        let ContinuationToken: string | undefined;
        do {
          const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken }));
          for (const object of page.Contents ?? []) {
            if (!object.Key || !object.LastModified || object.LastModified.getTime() > cutoff) continue;
            const { TagSet } = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: object.Key }));
            if (!TagSet?.some((tag) => tag.Key === UPLOAD_TAG.key && tag.Value === UPLOAD_TAG.pending)) continue;
            await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
            removed.push({ bucket, key: object.Key });
          }
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
      }
    }
  } finally {
    s3.destroy();
  }
  return removed;
}
