// Checks an AWS Signature Version 4 (the Authorization header) as AWS does: the access key must be the twin's, the
// date within 15 minutes, and the signature what the AWS SDK's own signer computes for the same request with the
// twin's secret. The emulators that check nothing themselves (the WebSocket @connections API, DynamoDB Local) are
// guarded by this.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  method: string;
  /** As received: path and query, still percent-encoded. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** AWS refuses a request signed more than 15 minutes before or after its clock (RequestTimeTooSkewed / "Signature expired"). */
const MAX_SKEW_MS = 15 * 60 * 1000;

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Why the request's signature is refused, or undefined when it is valid. */
export async function sigV4Refusal(request: SignedRequest, credentials: LocalCredentials, now = Date.now()): Promise<string | undefined> {
  const authorization = headerValue(request.headers.authorization);
  const parsed = authorization ? AUTHORIZATION.exec(authorization) : null;
  if (!parsed) return 'Missing Authentication Token';
  const [, accessKeyId, , region, service, signedHeaderList, signature] = parsed as unknown as string[];
  if (accessKeyId !== credentials.accessKeyId) return 'The security token included in the request is invalid.';
  const amzDate = headerValue(request.headers['x-amz-date']);
  const signingDate = amzDate ? parseAmzDate(amzDate) : undefined;
  if (!signingDate) return 'Missing x-amz-date';
  if (Math.abs(now - signingDate.getTime()) > MAX_SKEW_MS) return 'Signature expired';

  const signedHeaders = signedHeaderList!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerValue(request.headers[name]);
    if (value === undefined) return `The signed header ${name} is missing`;
    headers[name] = value;
  }
  const url = new URL(request.url, 'http://local');
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const existing = query[name];
    query[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  const signer = new SignatureV4({ credentials, region: region!, service: service!, sha256: NodeSha256, uriEscapePath: service !== 's3' });
  const expected = await signer.sign(
    { method: request.method, protocol: 'http:', hostname: headers.host ?? 'local', path: rawPath(request.url), query, headers, body: request.body },
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1] ?? '';
  const matches = expectedSignature.length === signature!.length && timingSafeEqual(Buffer.from(expectedSignature), Buffer.from(signature!));
  return matches ? undefined : 'The request signature we calculated does not match the signature you provided.';
}

function rawPath(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}

function parseAmzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): Buffer =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** SHA-256 and HMAC-SHA256 from node:crypto, in the shape the signer takes. */
class NodeSha256 {
  readonly #secret?: Data;
  #hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;

  constructor(secret?: Data) {
    this.#secret = secret;
    this.#hash = this.#fresh();
  }

  #fresh() {
    return this.#secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.#secret));
  }

  update(data: Data): void {
    this.#hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }

  reset(): void {
    this.#hash = this.#fresh();
  }
}

/** A request to an emulator front as its signature check needs it, its body read whole. */
export function signedRequestOf(req: IncomingMessage): Promise<SignedRequest> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) }));
    req.on('error', fail);
  });
}
