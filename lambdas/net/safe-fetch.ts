// The one way our functions fetch an address that came from outside (a product page a user pasted, an image a
// provider answered with, a seller's webhook endpoint). Each hop's host is resolved once and every address it resolves
// to must be allowed (address-guard.ts); the socket then connects to exactly that address, because the request's DNS
// lookup only hands out the address already checked (no second lookup, so DNS rebinding cannot switch it). Redirects
// are followed by hand and each hop is checked again; the time limit covers every hop and the body, and the byte
// limit is enforced while the (decompressed) body streams.
//
// Node's own http/https clients, not fetch: the global fetch (undici) takes no per-request lookup without the undici
// package, which would add about 400 KB to every function that fetches.
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupOptions } from 'node:dns';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  checkedTestTarget,
  checkTarget,
  defaultResolver,
  notAllowed,
  SafeFetchError,
  testSend,
  testTargetsFromEnv,
  unreachable,
  type Resolver,
  type Send,
} from './address-guard.js';

export {
  checkTarget,
  isPublicAddress,
  SafeFetchError,
  TEST_FETCH_TARGETS_ENV,
  testTargetsFromEnv,
  type Resolver,
  type SafeFetchFailure,
  type TestNetwork,
  useTestNetwork,
} from './address-guard.js';

export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;

/** What a desktop browser sends: some shops answer scripts with a block page or nothing. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface SafeFetchOptions {
  /** The most body bytes read, or a limit per response content type; more ends the fetch with TOO_LARGE. */
  maxBytes: number | ((contentType: string) => number);
  /** Every hop and the whole body together. */
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** A deadline of the caller's, on top of `timeoutMs`. */
  signal?: AbortSignal;
  /** How host names become addresses (tests point it at a fake); the test network's or the system's unless given. */
  resolve?: Resolver;
  /** Loopback `address:port` pairs to allow besides TEST_FETCH_TARGETS_ENV's (tests only). */
  testTargets?: Iterable<string>;
  /** Loopback addresses on any port (outgoing webhooks on the local twin, where a developer receives them). */
  allowLoopback?: boolean;
  /** GET unless said; a POST sends `body`. */
  method?: 'GET' | 'POST';
  body?: string;
  /** Added to (and overriding) the default request headers. */
  headers?: Record<string, string>;
  /** false: a redirect is not followed but answered as HTTP_ERROR with its status (webhook deliveries). */
  followRedirects?: boolean;
}

export interface FetchedBody {
  /** The address that answered, after redirects. */
  url: string;
  status: number;
  /** The media type, lower case, without parameters ('' when none was sent). */
  contentType: string;
  bytes: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs (or POSTs) a URL under the guard and reads its body within the limits. Anything refused or failed is a SafeFetchError
 * saying why; a non-2xx final answer is HTTP_ERROR with its status.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions): Promise<FetchedBody> {
  const testTargets = new Set([...testTargetsFromEnv(), ...[...(options.testTargets ?? [])].map(checkedTestTarget)]);
  const resolve = options.resolve ?? defaultResolver;
  const sendRequest = testSend() ?? send;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw notAllowed();
  }
  const headers: OutgoingHttpHeaders = {
    'user-agent': BROWSER_USER_AGENT,
    accept: options.accept ?? '*/*',
    'accept-language': 'en-US,en;q=0.9',
    'accept-encoding': 'gzip, deflate, br',
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await abortable(checkTarget(url, resolve, testTargets, options.allowLoopback === true), signal);
      const response = await sendRequest(url, target, { method: options.method ?? 'GET', headers, body: options.body, signal });
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && options.followRedirects !== false) {
        response.destroy();
        const location = response.headers.location;
        if (!location) throw unreachable('The address redirected nowhere');
        if (redirects >= maxRedirects) throw new SafeFetchError('TOO_MANY_REDIRECTS', 'The address redirected too many times');
        try {
          url = new URL(location, url);
        } catch {
          throw notAllowed();
        }
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new SafeFetchError('HTTP_ERROR', `The address answered ${status}`, { status });
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const limitBytes = typeof options.maxBytes === 'function' ? options.maxBytes(contentType) : options.maxBytes;
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limitBytes) {
        response.destroy();
        throw new SafeFetchError('TOO_LARGE', 'The answer is too large', { sizeBytes: declared, limitBytes, contentType });
      }
      const bytes = await readLimited(decoded(response), limitBytes, contentType, signal);
      return { url: url.href, status, contentType, bytes };
    }
  } catch (error) {
    throw failureOf(error, signal);
  }
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/** One request on a fresh connection to the checked address: the lookup never resolves anything itself. */
const send: Send = (url, target, init) => {
  const lookup = (_hostname: string, options: LookupOptions, callback: LookupCallback) => {
    if (options.all) return callback(null, [{ address: target.address, family: target.family }]);
    return callback(null, target.address, target.family);
  };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: init.method, headers: init.headers, signal: init.signal, agent: false, lookup: lookup as never },
      resolve,
    );
    request.on('error', reject);
    request.end(init.body);
  });
};

/** The body as sent before any content coding: gzip, deflate and br are undone here, so the limit counts real bytes. */
function decoded(response: IncomingMessage): Readable {
  const coding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return response;
  pipeline(response, decoder, () => undefined);
  return decoder;
}

async function readLimited(body: Readable, limitBytes: number, contentType: string, signal: AbortSignal): Promise<Buffer> {
  const stop = () => body.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal.addEventListener('abort', stop, { once: true });
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > limitBytes) {
        body.destroy();
        throw new SafeFetchError('TOO_LARGE', 'The answer is too large', { limitBytes, contentType });
      }
      chunks.push(chunk);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return Buffer.concat(chunks, total);
}

/** A resolution that may hang ends with the deadline too. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function failureOf(error: unknown, signal: AbortSignal): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof SafeFetchError) return cause;
  if (signal.aborted) return new SafeFetchError('TIMEOUT', 'The address took too long to answer');
  return unreachable();
}
