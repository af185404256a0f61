// Presigned URLs by logical bucket name: the browser uploads and displays files straight from S3 with them. They are
// signed here with the SDK's S3 presigner alone (SigV4, which every bundle has through the DynamoDB client) rather
// than through the S3 client: the functions that only hand out URLs (listing items, generations and videos, upload
// URLs) then carry no S3 client, about 130 KB of each bundle. The URL is the one the S3 client builds for the same
// request (test/unit/presign.test.ts compares them byte for byte): virtual-hosted in AWS, and at the endpoint the
// environment names (AWS_ENDPOINT_URL_S3, path-style with S3_FORCE_PATH_STYLE=true) on the local twin.
import { Sha256 } from './sha256.js';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { signingCredentials } from './signing-session.js';
import { bucketName, UPLOAD_TAG } from '../data/tables.js';
import type { BucketName } from '../data/tables.js';

export interface PresignedUpload {
  url: string;
  /** The headers the PUT must carry exactly: they are part of the signature. */
  headers: Record<string, string>;
}

/** The tag every upload is created with; the abandoned-uploads lifecycle rule removes objects still carrying it. */
export const PENDING_UPLOAD_TAGGING = `${UPLOAD_TAG.key}=${UPLOAD_TAG.pending}`;

/**
 * A PUT URL for one new object of a declared type and size. In S3 the signature binds the type and the length, and
 * the signed `If-None-Match: *` (a conditional write: 412 PreconditionFailed when the key exists) makes the URL create
 * the object once: it cannot overwrite a file the server has since checked. Clients send exactly `headers`.
 * The object is created tagged `upload=pending`; the tag header is signed and kept a header (not hoisted into the
 * query), so the browser cannot leave it out and the upload is removed after a day unless a route takes it.
 */
export async function presignUpload(
  bucket: BucketName,
  key: string,
  file: { contentType: string; sizeBytes: number },
  expiresInSeconds: number,
): Promise<PresignedUpload> {
  const headers = { 'content-type': file.contentType, 'if-none-match': '*', 'x-amz-tagging': PENDING_UPLOAD_TAGGING };
  const url = await presign(bucketName(bucket), key, {
    method: 'PUT',
    headers: { ...headers, 'content-length': String(file.sizeBytes) },
    query: { 'x-id': 'PutObject' },
    expiresInSeconds,
    // Every header is signed (S3's presigner leaves out only content-type unless asked); named here, so the condition
    // that makes the URL single-use can't drop out of the signature unnoticed.
    signableHeaders: ['content-type', 'if-none-match', 'x-amz-tagging'],
    unhoistableHeaders: ['x-amz-tagging'],
  });
  return { url, headers };
}

/** A GET URL for display; the answer carries `contentType` whatever type the object was stored with. */
export function presignDownload(bucket: BucketName, key: string, contentType: string, expiresInSeconds: number): Promise<string> {
  return presign(bucketName(bucket), key, {
    method: 'GET',
    headers: {},
    query: { 'response-content-type': contentType, 'x-id': 'GetObject' },
    expiresInSeconds,
  });
}

/** A GET URL that the browser saves as `fileName` (Content-Disposition: attachment). */
export function presignAttachment(bucket: BucketName, key: string, contentType: string, fileName: string, expiresInSeconds: number): Promise<string> {
  return presign(bucketName(bucket), key, {
    method: 'GET',
    headers: {},
    query: {
      'response-content-disposition': `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
      'response-content-type': contentType,
      'x-id': 'GetObject',
    },
    expiresInSeconds,
  });
}

/**
 * A GET URL that lists the keys under `prefix` (ListObjectsV2) of a bucket named by its physical name, for
 * storage/object-list.ts.
 */
export function presignObjectListing(bucket: string, prefix: string, expiresInSeconds: number): Promise<string> {
  return presign(bucket, '', { method: 'GET', headers: {}, query: { 'list-type': '2', prefix }, expiresInSeconds });
}

/**
 * A DELETE URL for one object of a bucket named by its physical name, for storage/object-deletion.ts (the server
 * deletes with it; it is never handed to a browser).
 */
export function presignDeletion(bucket: string, key: string, expiresInSeconds: number): Promise<string> {
  return presign(bucket, key, { method: 'DELETE', headers: {}, query: { 'x-id': 'DeleteObject' }, expiresInSeconds });
}

/**
 * A short-lived URL for one object request made by the server itself (storage/object-transfer.ts): HEAD, GET, or a
 * PUT that stores (or replaces) the object with the given type and exact length, tagged to expire after a day when
 * `expiresAfterADay` (an export that is downloaded once).
 */
export function presignObjectRequest(
  bucket: BucketName,
  key: string,
  request: { method: 'HEAD' | 'GET' } | { method: 'PUT'; contentType: string; sizeBytes: number; expiresAfterADay?: boolean },
  expiresInSeconds: number,
): Promise<string> {
  if (request.method !== 'PUT') return presign(bucketName(bucket), key, { method: request.method, headers: {}, query: {}, expiresInSeconds });
  const tagging: Record<string, string> = request.expiresAfterADay ? { 'x-amz-tagging': PENDING_UPLOAD_TAGGING } : {};
  return presign(bucketName(bucket), key, {
    method: 'PUT',
    headers: { 'content-type': request.contentType, 'content-length': String(request.sizeBytes), ...tagging },
    query: { 'x-id': 'PutObject' },
    expiresInSeconds,
    signableHeaders: ['content-type', ...Object.keys(tagging)],
    unhoistableHeaders: Object.keys(tagging),
  });
}

interface PresignRequest {
  method: 'GET' | 'PUT' | 'HEAD' | 'DELETE';
  headers: Record<string, string>;
  query: Record<string, string>;
  expiresInSeconds: number;
  signableHeaders?: string[];
  unhoistableHeaders?: string[];
}

/** Signed URLs are taken to end this long before the session that signed them, for clock skew. */
const CREDENTIALS_MARGIN_SECONDS = 60;

/**
 * How long a URL signed at `now` really lasts: `seconds`, or less when the session that signs it (signing-session.ts)
 * ends sooner: a URL signed with temporary credentials stops working when they expire, whatever its X-Amz-Expires
 * says, so it is signed, and answered as lasting, for no longer.
 */
export async function signedUrlSeconds(seconds: number, now = Date.now()): Promise<number> {
  const { expiration } = await signingCredentials();
  if (!expiration) return seconds;
  const left = Math.floor((expiration.getTime() - now) / 1000) - CREDENTIALS_MARGIN_SECONDS;
  return Math.max(1, Math.min(seconds, left));
}

/** When URLs signed at `now` for `seconds` stop working: the earlier of their own expiry and their credentials'. */
export async function signedUrlExpiresAt(seconds: number, now = Date.now()): Promise<string> {
  return new Date(now + (await signedUrlSeconds(seconds, now)) * 1000).toISOString();
}

const presigners = new Map<string, S3RequestPresigner>();
function presignerFor(region: string): S3RequestPresigner {
  let presigner = presigners.get(region);
  if (!presigner) {
    presigner = new S3RequestPresigner({ credentials: () => signingCredentials(), region, sha256: Sha256 });
    presigners.set(region, presigner);
  }
  return presigner;
}

async function presign(bucket: string, key: string, request: PresignRequest, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('Missing configuration: environment variable AWS_REGION is not set');
  const location = objectLocation(bucket, key, region, env);
  const signed = await presignerFor(region).presign(
    {
      method: request.method,
      protocol: location.protocol,
      hostname: location.hostname,
      port: location.port,
      path: location.path,
      query: request.query,
      headers: { ...request.headers, host: location.port ? `${location.hostname}:${location.port}` : location.hostname },
    },
    {
      expiresIn: await signedUrlSeconds(request.expiresInSeconds),
      signableHeaders: request.signableHeaders ? new Set(request.signableHeaders) : undefined,
      unhoistableHeaders: request.unhoistableHeaders ? new Set(request.unhoistableHeaders) : undefined,
      signingRegion: region,
      signingService: 's3',
    },
  );
  const query = Object.keys(signed.query ?? {})
    .sort()
    .map((name) => `${escapeUri(name)}=${escapeUri(String(signed.query![name]))}`)
    .join('&');
  return `${signed.protocol}//${location.host}${signed.path}${query ? `?${query}` : ''}`;
}

interface ObjectLocation {
  protocol: string;
  hostname: string;
  port?: number;
  /** hostname[:port] */
  host: string;
  path: string;
}

/** Where the S3 client sends a request for this object: the endpoint and addressing style it would choose. */
export function objectLocation(bucket: string, key: string, region: string, env: NodeJS.ProcessEnv = process.env): ObjectLocation {
  const objectPath = `/${key.split('/').map(escapeUri).join('/')}`;
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const base = endpoint ? new URL(endpoint) : new URL(`https://s3.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
  // Virtual-hosted (bucket in the host name) unless asked for path-style or the bucket name cannot be a DNS label.
  const pathStyle = env.S3_FORCE_PATH_STYLE === 'true' || !/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);
  const hostname = pathStyle ? base.hostname : `${bucket}.${base.hostname}`;
  const port = base.port ? Number(base.port) : undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  return {
    protocol: base.protocol,
    hostname,
    port,
    host: port ? `${hostname}:${port}` : hostname,
    path: pathStyle ? `${prefix}/${bucket}${objectPath}` : `${prefix}${objectPath}`,
  };
}

/** RFC 3986 encoding, as S3 signs and parses paths and query strings. */
const escapeUri = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
