// Presigned URLs are signed without the S3 client (so the functions that only hand out URLs don't carry it); they
// must be exactly what the S3 client's getSignedUrl makes for the same request, in AWS and on the local twin.
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bucketEnvName } from '../../lambdas/data/tables.js';
import { presignDeletion, presignDownload, presignObjectListing, presignUpload } from '../../lambdas/storage/presign.js';

const ENV = ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_ENDPOINT_URL_S3', 'S3_FORCE_PATH_STYLE'];
const BUCKET = 'modelloop-dev-storageclothingimages-1x2y3z4w5v6u';
const KEYS = ['0f1e2d3c-aaaa-bbbb-cccc-123456789abc/1763900000000-0123456789abcdef.jpg', 'u-1/videos/job 1/out(0)+!*.mp4'];

const hosts = {
  'AWS us-east-1': { AWS_REGION: 'us-east-1' },
  'AWS eu-central-1 with a session token': { AWS_REGION: 'eu-central-1', AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVz+token=' },
  'the local twin (s3rver, path-style)': { AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4569', S3_FORCE_PATH_STYLE: 'true' },
};

let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries([...ENV, bucketEnvName('clothingImages')].map((name) => [name, process.env[name]]));
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-23T19:30:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function useEnvironment(env: Record<string, string>): S3Client {
  for (const name of ENV) delete process.env[name];
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', ...env });
  process.env[bucketEnvName('clothingImages')] = BUCKET;
  // The client as lambdas/core/s3.ts makes it (the endpoint comes from AWS_ENDPOINT_URL_S3, as in the functions).
  return new S3Client({
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

describe.each(Object.entries(hosts))('presigned URLs on %s', (_host, env) => {
  it.each(KEYS)('upload URL for %s equals the S3 client\'s', async (key) => {
    const client = useEnvironment(env);
    const expected = await getSignedUrl(
      client,
      new PutObjectCommand({ Bucket: BUCKET, Key: key, ContentType: 'image/png', ContentLength: 123_456, IfNoneMatch: '*', Tagging: 'upload=pending' }),
      { expiresIn: 900, signableHeaders: new Set(['content-type', 'if-none-match', 'x-amz-tagging']), unhoistableHeaders: new Set(['x-amz-tagging']) },
    );
    const upload = await presignUpload('clothingImages', key, { contentType: 'image/png', sizeBytes: 123_456 }, 900);
    expect(upload.url).toBe(expected);
    // Signed headers the PUT must carry: the length and type declared, the pending tag the abandoned-uploads rule
    // matches, and If-None-Match: * that makes the URL single-use (a second PUT to the key answers 412).
    expect(new URL(upload.url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host', 'if-none-match', 'x-amz-tagging']);
    expect(upload.headers).toEqual({ 'content-type': 'image/png', 'if-none-match': '*', 'x-amz-tagging': 'upload=pending' });
  });

  it.each(KEYS)('display URL for %s equals the S3 client\'s', async (key) => {
    const client = useEnvironment(env);
    const expected = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: key, ResponseContentType: 'video/mp4' }), { expiresIn: 3600 });
    expect(await presignDownload('clothingImages', key, 'video/mp4', 3600)).toBe(expected);
  });

  it.each(KEYS)('deletion URL for %s equals the S3 client\'s', async (key) => {
    const client = useEnvironment(env);
    const expected = await getSignedUrl(client, new DeleteObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 60 });
    expect(await presignDeletion(BUCKET, key, 60)).toBe(expected);
  });

  it('listing URL of a folder equals the S3 client\'s', async () => {
    const client = useEnvironment(env);
    const prefix = 'u-1/videos/job-1/raw/0-0/abc123def456/';
    const expected = await getSignedUrl(client, new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }), { expiresIn: 60 });
    expect(await presignObjectListing(BUCKET, prefix, 60)).toBe(expected);
  });
});
