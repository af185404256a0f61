// Object reads and one streamed write by presigned requests sent without the S3 client, for the function that builds
// "Download all" zips: the S3 client with its XML protocol and multipart Upload is about 200 KB of a bundle, which
// took that function past its 400 KB budget. The zip's length is known before it is written (its entries are stored),
// so one PUT with a Content-Length streams it; S3 takes up to 5 GB in one PUT, past the zip's own 4 GB limit.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bucketName, type BucketName } from '../data/tables.js';
import { PENDING_UPLOAD_TAGGING, presignObjectRequest } from './presign.js';

/** A URL is needed only for the request made right after signing it. */
const URL_SECONDS = 300;
const HEAD_TIMEOUT_MS = 10_000;

function failure(what: string, status: number, body = ''): Error {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? 'S3ServiceException';
  return Object.assign(new Error(`${what} answered ${status} ${code}`), { name: code, $metadata: { httpStatusCode: status } });
}

/** The stored size of an object, or undefined when there is none. */
export async function storedSize(bucket: BucketName, key: string): Promise<number | undefined> {
  const url = await presignObjectRequest(bucket, key, { method: 'HEAD' }, URL_SECONDS);
  const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(HEAD_TIMEOUT_MS) });
  if (response.status === 404) return undefined;
  if (!response.ok) throw failure(`HEAD ${key}`, response.status);
  return Number(response.headers.get('content-length') ?? 0);
}

/** The object's bytes as a stream. */
export async function openObject(bucket: BucketName, key: string): Promise<Readable> {
  const url = await presignObjectRequest(bucket, key, { method: 'GET' }, URL_SECONDS);
  const response = await fetch(url);
  if (!response.ok || !response.body) throw failure(`GET ${key}`, response.status, await response.text().catch(() => ''));
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
}

/**
 * Stores `bytes` at a location handed to someone else (a provider's clip), which must be in `bucket`: a location in
 * any other bucket is refused, never written.
 */
export async function putBytesAt(bucket: BucketName, location: { bucket: string; key: string }, bytes: Buffer, contentType: string): Promise<void> {
  if (location.bucket !== bucketName(bucket)) throw new Error(`object for an unexpected bucket: ${location.bucket}`);
  await putObjectStream(bucket, location.key, Readable.from([bytes]), bytes.length, contentType);
}

/** Streams exactly `sizeBytes` bytes of `body` into the object (created or replaced) in one PUT. */
export async function putObjectStream(
  bucket: BucketName,
  key: string,
  body: Readable,
  sizeBytes: number,
  contentType: string,
  { expiresAfterADay = false }: { expiresAfterADay?: boolean } = {},
): Promise<void> {
  const url = new URL(await presignObjectRequest(bucket, key, { method: 'PUT', contentType, sizeBytes, expiresAfterADay }, URL_SECONDS));
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  const tagging: Record<string, string> = expiresAfterADay ? { 'x-amz-tagging': PENDING_UPLOAD_TAGGING } : {};
  const request = send(url, { method: 'PUT', headers: { 'content-type': contentType, 'content-length': String(sizeBytes), ...tagging } });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.once('error', reject);
    });
    request.once('error', reject);
  });
  await Promise.all([pipeline(body, request), answered]);
  const { status, body: text } = await answered;
  if (status < 200 || status >= 300) throw failure(`PUT ${key}`, status, text);
}
