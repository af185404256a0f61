// Checks an AWS Signature Version 4 (the Authorization header) as AWS does: the access key must be one the twin knows
// (its own or a function's, lib/local/grants.ts), the session token the key's, the date within 15 minutes, and the
// signature what the AWS SDK's own signer computes for the same request with that key's secret. The emulators that
// check nothing themselves (DynamoDB Local, the local Step Functions API, cognito-local's IAM-authorized operations,
// the WebSocket @connections API) are guarded by this; each then checks what the signer may do (grants.ts).
// Errors are the AWS JSON protocols' (Common Errors of the AWS API references, read November 2026):
// MissingAuthenticationToken (403), UnrecognizedClientException for an unknown key or token, InvalidSignatureException.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The credentials of each access key id a service knows. */
export type CredentialsOf = (accessKeyId: string) => LocalCredentials | undefined;

/** Why AWS refuses a request's signature, as its JSON protocols answer it. */
export interface SignatureRefusal {
  type: 'MissingAuthenticationTokenException' | 'UnrecognizedClientException' | 'InvalidSignatureException';
  status: number;
  message: string;
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

/** The access key id that signed the request, or why its signature is refused. */
export async function checkSigV4(request: SignedRequest, credentialsOf: CredentialsOf, now = Date.now()): Promise<{ accessKeyId: string } | { refusal: SignatureRefusal }> {
  const refuse = (type: SignatureRefusal['type'], message: string) => ({ refusal: { type, status: type === 'MissingAuthenticationTokenException' ? 403 : 400, message } });
  const authorization = headerValue(request.headers.authorization);
  const parsed = authorization ? AUTHORIZATION.exec(authorization) : null;
  if (!parsed) return refuse('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const [, accessKeyId, , region, service, signedHeaderList, signature] = parsed as unknown as string[];
  const credentials = credentialsOf(accessKeyId!);
  if (!credentials || (credentials.sessionToken ?? undefined) !== headerValue(request.headers['x-amz-security-token'])) {
    return refuse('UnrecognizedClientException', 'The security token included in the request is invalid.');
  }
  const amzDate = headerValue(request.headers['x-amz-date']);
  const signingDate = amzDate ? parseAmzDate(amzDate) : undefined;
  if (!signingDate) return refuse('InvalidSignatureException', 'Missing x-amz-date');
  if (Math.abs(now - signingDate.getTime()) > MAX_SKEW_MS) return refuse('InvalidSignatureException', 'Signature expired');

  const signedHeaders = signedHeaderList!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerValue(request.headers[name]);
    if (value === undefined) return refuse('InvalidSignatureException', `The signed header ${name} is missing`);
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
  return matches ? { accessKeyId: accessKeyId! } : refuse('InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.');
}

/** A refused signature, answered as AWS's JSON protocols answer it. */
export function sendSignatureRefusal(res: ServerResponse, refusal: SignatureRefusal, contentType = 'application/x-amz-json-1.0'): void {
  res.writeHead(refusal.status, { 'content-type': contentType, 'x-amzn-errortype': refusal.type });
  res.end(JSON.stringify({ __type: refusal.type, message: refusal.message }));
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
