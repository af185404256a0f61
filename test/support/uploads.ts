// Uploads as the web app makes them (ask for a presigned PUT, send the file with exactly the signed headers), and the
// twin's S3 seen from outside, for tests that check what is stored.
import { GetObjectTaggingCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import { DEMO_PRODUCTS, productPhoto } from '../../lib/local/products.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { api } from './api.js';
import type { TwinInfo } from './global-twin.js';
import type { TestUser } from './users.js';

/** A small JPEG product photo (the demo's T-shirt): the local engine makes an on-model picture of it. */
export const productJpeg = () => productPhoto(DEMO_PRODUCTS[0]!, 300, 350);

/** Uploads `bytes` through an upload-URL route ('/clothing-items/upload-url' or '/generation-uploads/upload-url'). */
export async function uploadFile(twin: TwinInfo, user: TestUser, route: string, bytes: Buffer, fileName = 'photo.jpg', contentType = 'image/jpeg'): Promise<string> {
  const answer = await api(twin.apiUrl, 'POST', route, { user, body: { fileName, contentType, sizeBytes: bytes.length } });
  expect(answer.status).toBe(200);
  const put = await fetch(answer.body.uploadUrl, { method: 'PUT', headers: answer.body.headers, body: bytes });
  await put.arrayBuffer();
  expect(put.status).toBe(200);
  return answer.body.imageKey as string;
}

/** An S3 client of the twin's s3rver, for looking at the buckets from outside the app. */
export function twinS3(twin: TwinInfo): S3Client {
  return new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
}

/** Every key under `prefix` in a bucket (physical name). */
export async function listKeys(s3: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return keys;
}

/** The object's `upload` tag (pending, kept) or undefined. */
export async function uploadTag(s3: S3Client, bucket: string, key: string): Promise<string | undefined> {
  const { TagSet } = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
  return TagSet?.find((tag) => tag.Key === 'upload')?.Value;
}
