// The checks S3 makes before it serves a request, which s3rver does not make: a SigV4 signature (Authorization
// header or presigned query) recomputed with the credentials of its access key (the twin's or a function's), the
// presigned URL's expiry, every x-amz-* header signed, and the conditional write `If-None-Match: *`. A signed header
// (content-length, content-type, x-amz-tagging, if-none-match) that the request sends with another value, or leaves
// out, changes the canonical request and so fails the signature, as it does in S3. Errors are S3's codes, statuses and XML.
//
// Sources: SigV4 for S3 (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html),
// presigned URLs (…/sigv4-query-string-auth.html: X-Amz-Expires at most 604,800 s), clock skew of header-signed
// requests (RequestTimeTooSkewed beyond 15 minutes), conditional writes (…/userguide/conditional-writes.html:
// `If-None-Match: *` on PutObject answers 412 PreconditionFailed when the key exists).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { getCanonicalQuery, getSigningKey } from '@smithy/signature-v4';
import { Sha256 } from '../../lambdas/storage/sha256.js';
import { sessionTokenExpiry } from './sts.js';

export interface TwinCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** What the check needs of a request: the raw target as sent and its headers (lower-case names, Node's form). */
export interface SignedRequest {
  method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  toXml(): string {
    const escape = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${this.code}</Code><Message>${escape(this.message)}</Message></Error>`;
  }
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** The longest a presigned URL may be valid (7 days). */
const MAX_PRESIGNED_SECONDS = 604_800;
/** How far a header-signed request's X-Amz-Date may be from the server's clock. */
const MAX_CLOCK_SKEW_MS = 15 * 60_000;

const accessDenied = (message = 'Access Denied') => new S3Refusal(403, 'AccessDenied', message);
const signatureMismatch = () =>
  new S3Refusal(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');

/**
 * Checks one request as S3 would before serving it; throws an S3Refusal when S3 would refuse it, and returns the access
 * key id it was signed with (undefined for a preflight: OPTIONS carries no signature in S3 either and passes).
 * `credentialsOf` gives the credentials of each access key id the service knows.
 */
export async function checkSignature(
  request: SignedRequest,
  credentialsOf: (accessKeyId: string) => TwinCredentials | undefined,
  region: string,
  now = Date.now(),
): Promise<string | undefined> {
  if (request.method === 'OPTIONS') return undefined;
  const [rawPath, rawQuery = ''] = splitOnce(request.url, '?');
  const query = parseQuery(rawQuery);
  const authorization = header(request, 'authorization');
  const presigned = query['X-Amz-Algorithm'] !== undefined;
  if (!authorization && !presigned) throw accessDenied();
  if (authorization && presigned) {
    throw new S3Refusal(400, 'InvalidArgument', 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified');
  }

  const fields = presigned ? presignedFields(query) : headerFields(authorization!, request);
  if (fields.algorithm !== ALGORITHM) throw new S3Refusal(400, 'InvalidArgument', `Unsupported signing algorithm: ${fields.algorithm}`);
  const [accessKeyId, shortDate, scopeRegion, service, terminator] = fields.credential.split('/');
  const credentials = accessKeyId === undefined ? undefined : credentialsOf(accessKeyId);
  if (!credentials) throw new S3Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (scopeRegion !== region || service !== 's3' || terminator !== 'aws4_request' || !fields.amzDate.startsWith(shortDate ?? '-')) {
    throw new S3Refusal(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region or scope is wrong; expecting '${region}'`);
  }
  if (fields.sessionToken !== credentials.sessionToken) {
    // A session of the twin's STS (lib/local/sts.ts) carries its end: refused after it, as S3 refuses an expired session.
    const sessionEnds = fields.sessionToken === undefined ? undefined : sessionTokenExpiry(credentials, fields.sessionToken);
    if (!sessionEnds) throw new S3Refusal(400, 'InvalidToken', 'The provided token is malformed or otherwise invalid.');
    if (now >= sessionEnds.getTime()) throw new S3Refusal(400, 'ExpiredToken', 'The provided token has expired.');
  }

  const signedAt = parseAmzDate(fields.amzDate);
  if (presigned) {
    const expires = Number(query['X-Amz-Expires']);
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGNED_SECONDS) {
      throw new S3Refusal(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be between 1 and 604800 seconds');
    }
    if (now > signedAt + expires * 1000) throw accessDenied('Request has expired');
    if (now < signedAt - MAX_CLOCK_SKEW_MS) throw accessDenied('Request is not valid yet');
  } else if (Math.abs(now - signedAt) > MAX_CLOCK_SKEW_MS) {
    throw new S3Refusal(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  }

  const signedHeaders = fields.signedHeaders.split(';');
  if (!signedHeaders.includes('host')) throw accessDenied('The host header must be signed');
  // S3 refuses x-amz-* headers the signature does not cover: the signer meant the request to be sent without them.
  const unsigned = Object.keys(request.headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned.length) throw accessDenied(`There were headers present in the request which were not signed: ${unsigned.join(', ')}`);

  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(header(request, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method, rawPath, getCanonicalQuery({ query } as Parameters<typeof getCanonicalQuery>[0]), canonicalHeaders, fields.signedHeaders, fields.payloadHash].join('\n');
  const scope = `${shortDate}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, fields.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = await getSigningKey(Sha256, credentials, shortDate!, region, 's3');
  const expected = createHmac('sha256', Buffer.from(key)).update(stringToSign).digest();
  const given = Buffer.from(fields.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw signatureMismatch();
  return accessKeyId;
}

interface SignatureFields {
  algorithm: string;
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  sessionToken: string | undefined;
  payloadHash: string;
}

function presignedFields(query: Record<string, string | string[]>): SignatureFields {
  const one = (name: string) => {
    const value = query[name];
    if (typeof value !== 'string') throw new S3Refusal(400, 'AuthorizationQueryParametersError', `Query-string authentication requires exactly one ${name}`);
    return value;
  };
  const token = query['X-Amz-Security-Token'];
  return {
    algorithm: one('X-Amz-Algorithm'),
    credential: one('X-Amz-Credential'),
    signedHeaders: one('X-Amz-SignedHeaders'),
    signature: one('X-Amz-Signature'),
    amzDate: one('X-Amz-Date'),
    sessionToken: typeof token === 'string' ? token : undefined,
    // A presigned URL signs no body.
    payloadHash: typeof query['X-Amz-Content-Sha256'] === 'string' ? query['X-Amz-Content-Sha256'] : 'UNSIGNED-PAYLOAD',
  };
}

function headerFields(authorization: string, request: SignedRequest): SignatureFields {
  const match = /^(\S+) Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(authorization.trim());
  if (!match) throw new S3Refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const amzDate = header(request, 'x-amz-date');
  const payloadHash = header(request, 'x-amz-content-sha256');
  if (!amzDate) throw accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  if (!payloadHash) throw new S3Refusal(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  return {
    algorithm: match[1]!,
    credential: match[2]!,
    signedHeaders: match[3]!,
    signature: match[4]!,
    amzDate,
    sessionToken: header(request, 'x-amz-security-token'),
    payloadHash,
  };
}

function header(request: SignedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

/** The query as the signer saw it: names and values percent-decoded (a '+' is a plus, as S3 reads it), repeats kept. */
function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of raw.split('&')) {
    if (!pair) continue;
    const [name, value = ''] = splitOnce(pair, '=').map((part) => decodeURIComponent(part ?? '')) as [string, string?];
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

function parseAmzDate(amzDate: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!match) throw accessDenied('X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd\'T\'HHmmss\'Z\'"');
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

