// Object storage operations on the app's buckets, by logical bucket name, through the S3 client; the functions only
// ever touch keys they built or checked. Presigned URLs for the browser are storage/presign.ts, without the client.
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, PutObjectTaggingCommand } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { bucketName, UPLOAD_TAG, type BucketName } from '../data/tables.js';
import { s3 } from '../core/s3.js';

/** The object's body as a stream (for copying large objects without holding them in memory). */
export async function readObjectStream(bucket: BucketName, key: string): Promise<Readable> {
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucketName(bucket), Key: key }));
  return answer.Body as Readable;
}

/**
 * Streams a body of unknown length into an object (multipart upload, a part at a time). `expiresAfterADay`: tagged
 * like a pending upload, so the abandoned-uploads lifecycle rule removes it after a day (a "Download my data" zip).
 */
export async function writeObjectStream(bucket: BucketName, key: string, body: Readable, contentType: string, options: { expiresAfterADay?: boolean } = {}): Promise<void> {
  const { Upload } = await import('@aws-sdk/lib-storage');
  await new Upload({
    client: s3,
    params: { Bucket: bucketName(bucket), Key: key, Body: body, ContentType: contentType },
    tags: options.expiresAfterADay ? [{ Key: UPLOAD_TAG.key, Value: UPLOAD_TAG.pending }] : [],
  }).done();
}

/** The stored size of an object, or undefined when there is none. */
export async function objectSize(bucket: BucketName, key: string): Promise<number | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucketName(bucket), Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** The object's bytes, or its first `length` bytes. */
export async function readObject(bucket: BucketName, key: string, length?: number): Promise<Buffer> {
  const answer = await s3.send(
    new GetObjectCommand({ Bucket: bucketName(bucket), Key: key, Range: length === undefined ? undefined : `bytes=0-${length - 1}` }),
  );
  if (!answer.Body) return Buffer.alloc(0);
  return Buffer.from(await answer.Body.transformToByteArray());
}

export async function deleteObject(bucket: BucketName, key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: bucketName(bucket), Key: key }));
}

function isMissing(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}

/**
 * Stores bytes under a key the caller built. `pendingUpload`: the object stands for an upload (an image imported
 * from a link) and is tagged pending like one, so it is removed after a day unless a route takes it.
 */
export async function writeObject(bucket: BucketName, key: string, body: Buffer, contentType: string, options: { pendingUpload?: boolean } = {}): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucketName(bucket),
      Key: key,
      Body: body,
      ContentType: contentType,
      ...(options.pendingUpload ? { Tagging: `${UPLOAD_TAG.key}=${UPLOAD_TAG.pending}` } : {}),
    }),
  );
}

/** An upload a route has taken: the abandoned-uploads lifecycle rule (tag `upload=pending`) no longer matches it. */
export async function keepUpload(bucket: BucketName, key: string): Promise<void> {
  await s3.send(
    new PutObjectTaggingCommand({ Bucket: bucketName(bucket), Key: key, Tagging: { TagSet: [{ Key: UPLOAD_TAG.key, Value: UPLOAD_TAG.kept }] } }),
  );
}

/** The keys and sizes under a prefix, every page (for a user's own folder). */
export async function listObjects(bucket: BucketName, prefix: string): Promise<{ key: string; size: number }[]> {
  const objects: { key: string; size: number }[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucketName(bucket), Prefix: prefix, ContinuationToken }));
    objects.push(...(page.Contents ?? []).map((object) => ({ key: object.Key!, size: object.Size ?? 0 })));
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return objects;
}
