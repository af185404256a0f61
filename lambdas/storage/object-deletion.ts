// Deleting every object under a prefix (a user's folder, when their account is deleted) by presigned ListObjectsV2
// and DELETE requests sent with fetch instead of the S3 client: the deleting step of the delete-account workflow then
// carries neither the client nor the checksum code a DeleteObjects batch requires (about 190 KB of its bundle).
import { bucketName, type BucketName } from '../data/tables.js';
import { listObjectKeys } from './object-list.js';
import { presignDeletion } from './presign.js';

/** DELETE requests in flight at once. */
const PARALLEL_DELETES = 16;
const DELETE_TIMEOUT_MS = 10_000;

/** Deletes every object under `prefix`, a listing (up to 1,000 keys) at a time, until `deadline`; `more` if time ran out. */
export async function deleteObjectsUnder(bucket: BucketName, prefix: string, deadline: number): Promise<{ deleted: number; more: boolean }> {
  const physical = bucketName(bucket);
  let deleted = 0;
  for (;;) {
    if (Date.now() > deadline) return { deleted, more: true };
    const keys = await listObjectKeys(physical, prefix);
    if (keys.length === 0) return { deleted, more: false };
    for (let start = 0; start < keys.length; start += PARALLEL_DELETES) {
      await Promise.all(keys.slice(start, start + PARALLEL_DELETES).map((key) => deleteOne(physical, key)));
    }
    deleted += keys.length;
  }
}

/** Deletes one object (nothing when it is already gone), without the S3 client. */
export function deleteStoredObject(bucket: BucketName, key: string): Promise<void> {
  return deleteOne(bucketName(bucket), key);
}

async function deleteOne(bucket: string, key: string): Promise<void> {
  const response = await fetch(await presignDeletion(bucket, key, 60), { method: 'DELETE', signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) });
  const body = await response.text();
  // 204 when deleted; S3 answers 204 for a key already gone too.
  if (!response.ok && response.status !== 404) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? 'S3ServiceException';
    throw Object.assign(new Error(`Deleting s3://${bucket}/${key} answered ${response.status} ${code}`), { name: code, $metadata: { httpStatusCode: response.status } });
  }
}
