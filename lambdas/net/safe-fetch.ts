// The one way our functions fetch an address that came from outside (a product page a user pasted, an image a
// provider answered with). Node's global fetch ignores http.Agent-based guards, so this drives undici directly with
// an Agent whose DNS lookup only hands out the address already resolved and checked: the host is resolved once per
// hop, every address it resolves to must be a public unicast one, and the socket connects to exactly that address
// (no second lookup, so DNS rebinding cannot switch it). Redirects are followed by hand and each hop is checked
// again; the time limit covers every hop and the body, and the byte limit is enforced while the body streams.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { log } from '../core/log.js';

export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;
const ALLOWED_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** What a desktop browser sends: some shops answer scripts with a block page or nothing. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Loopback `address:port` pairs a test may open, e.g. `127.0.0.1:41234,127.0.0.1:41235`. Only the local twin's test
 * setup sets it; the cloud stack never passes it to a function (an infra test checks), and inside a real Lambda
 * runtime it is ignored, because 127.0.0.1 there is the runtime's own API.
 */
export const TEST_FETCH_TARGETS_ENV = 'MODELLOOP_TEST_FETCH_TARGETS';

export type SafeFetchFailure = 'ADDRESS_NOT_ALLOWED' | 'UNREACHABLE' | 'TIMEOUT' | 'TOO_MANY_REDIRECTS' | 'TOO_LARGE' | 'HTTP_ERROR';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: SafeFetchFailure,
    message: string,
    readonly details: { status?: number; sizeBytes?: number; limitBytes?: number; contentType?: string } = {},
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SafeFetchOptions {
  /** The most body bytes read, or a limit per response content type; more ends the fetch with TOO_LARGE. */
  maxBytes: number | ((contentType: string) => number);
  /** Every hop and the whole body together. */
  timeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  /** A deadline of the caller's, on top of `timeoutMs`. */
  signal?: AbortSignal;
  /** How host names become addresses (tests point it at a fake). */
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

/** True only for a public unicast address: not loopback, private, link-local, CGNAT, multicast, reserved, mapped… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // Only 'unicast' is the public internet; every other range ipaddr.js names (loopback, private, linkLocal,
  // carrierGradeNat, uniqueLocal, ipv4Mapped, rfc6052 (NAT64), 6to4, teredo, reserved, …) is refused.
  return ipaddr.parse(address).range() === 'unicast';
}

const LOOPBACK_TARGET = /^(.+):(\d{1,5})$/;

/** The loopback targets a test allowed; malformed or non-loopback entries are configuration errors. */
export function testTargetsFromEnv(env: NodeJS.ProcessEnv = process.env): Set<string> {
  const raw = env[TEST_FETCH_TARGETS_ENV]?.trim();
  if (!raw) return new Set();
  if (env.AWS_LAMBDA_RUNTIME_API) {
    log.warn('test fetch targets ignored inside a Lambda runtime', { variable: TEST_FETCH_TARGETS_ENV });
    return new Set();
  }
  return new Set(raw.split(',').map((entry) => checkedTestTarget(entry.trim())));
}

function checkedTestTarget(entry: string): string {
  const match = LOOPBACK_TARGET.exec(entry);
  const address = match?.[1]?.replace(/^\[|\]$/g, '') ?? '';
  if (!match || !ipaddr.isValid(address) || ipaddr.parse(address).range() !== 'loopback') {
    throw new Error(`Invalid configuration: ${TEST_FETCH_TARGETS_ENV} may only list loopback address:port pairs`);
  }
  return `${ipaddr.parse(address).toString()}:${Number(match[2])}`;
}

const notAllowed = () => new SafeFetchError('ADDRESS_NOT_ALLOWED', 'That address is not allowed');
const unreachable = (message = 'The address could not be reached') => new SafeFetchError('UNREACHABLE', message);

interface Target {
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
}

/** Checks a URL's scheme, credentials and port, then resolves its host once and checks every address. */
export async function checkTarget(url: URL, resolve: Resolver, testTargets: ReadonlySet<string>, allowLoopback = false): Promise<Target> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notAllowed();
  if (url.username || url.password) throw notAllowed();
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const portAllowed = allowLoopback || ALLOWED_PORTS.has(port) || [...testTargets].some((target) => target.endsWith(`:${port}`));
  if (!portAllowed) throw notAllowed();
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = (address: string) =>
    testTargets.has(`${ipaddr.parse(address).toString()}:${port}`) ||
    (allowLoopback && ipaddr.parse(address).range() === 'loopback') ||
    (ALLOWED_PORTS.has(port) && isPublicAddress(address));

  if (ipaddr.isValid(hostname)) {
    if (!allowed(hostname)) throw notAllowed();
    return { hostname, port, address: hostname, family: ipaddr.parse(hostname).kind() === 'ipv6' ? 6 : 4 };
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await resolve(hostname);
  } catch {
    throw unreachable('The address could not be found');
  }
  if (addresses.length === 0) throw unreachable('The address could not be found');
  // One forbidden address refuses the host: which one a connection would get is not ours to choose.
  if (!addresses.every((entry) => ipaddr.isValid(entry.address) && allowed(entry.address))) throw notAllowed();
  // IPv4 first: Lambda functions outside a VPC have no IPv6 egress.
  const chosen = addresses.find((entry) => entry.family === 4) ?? addresses[0]!;
  return { hostname, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** An Agent that never resolves anything itself: it connects to the address each host was checked at. */
function pinnedAgent(pinned: Map<string, Target>): Agent {
  const lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const target = pinned.get(hostname.replace(/^\[|\]$/g, ''));
    if (!target) return callback(notAllowed(), '', 0);
    if (options.all) return callback(null, [{ address: target.address, family: target.family }]);
    return callback(null, target.address, target.family);
  };
  return new Agent({ connect: { lookup: lookup as never }, connections: 1, pipelining: 0 });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs (or POSTs) a URL under the guard and reads its body within the limits. Anything refused or failed is a SafeFetchError
 * saying why; a non-2xx final answer is HTTP_ERROR with its status.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions): Promise<FetchedBody> {
  const testTargets = new Set([...testTargetsFromEnv(), ...[...(options.testTargets ?? [])].map(checkedTestTarget)]);
  const resolve = options.resolve ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const pinned = new Map<string, Target>();
  const agent = pinnedAgent(pinned);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw notAllowed();
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await abortable(checkTarget(url, resolve, testTargets, options.allowLoopback === true), signal);
      pinned.set(target.hostname, target);
      const response = await undiciFetch(url, {
        dispatcher: agent,
        redirect: 'manual',
        signal,
        method: options.method ?? 'GET',
        ...(options.body !== undefined ? { body: options.body } : {}),
        headers: {
          'user-agent': BROWSER_USER_AGENT,
          accept: options.accept ?? '*/*',
          'accept-language': 'en-US,en;q=0.9',
          ...options.headers,
        },
      });
      if (REDIRECTS.has(response.status) && options.followRedirects !== false) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (!location) throw unreachable('The address redirected nowhere');
        if (redirects >= maxRedirects) throw new SafeFetchError('TOO_MANY_REDIRECTS', 'The address redirected too many times');
        try {
          url = new URL(location, url);
        } catch {
          throw notAllowed();
        }
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel().catch(() => undefined);
        throw new SafeFetchError('HTTP_ERROR', `The address answered ${response.status}`, { status: response.status });
      }
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const limitBytes = typeof options.maxBytes === 'function' ? options.maxBytes(contentType) : options.maxBytes;
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limitBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new SafeFetchError('TOO_LARGE', 'The answer is too large', { sizeBytes: declared, limitBytes, contentType });
      }
      const bytes = await readLimited(response.body, limitBytes, contentType);
      return { url: url.href, status: response.status, contentType, bytes };
    }
  } catch (error) {
    throw failureOf(error, signal);
  } finally {
    void agent.destroy().catch(() => undefined);
  }
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limitBytes: number, contentType: string): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new SafeFetchError('TOO_LARGE', 'The answer is too large', { limitBytes, contentType });
    }
    chunks.push(value);
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
