// Which addresses a server-side fetch may reach, on their own: the scheme, credentials and port of a URL, and every
// address its host resolves to (public unicast only, unless a test or the twin opens loopback). Registration checks
// (a webhook's address) use it without pulling in the transport; `safe-fetch.ts` checks every hop with it.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { log } from '../core/log.js';

const ALLOWED_PORTS: ReadonlySet<number> = new Set([80, 443]);

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

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

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

export function checkedTestTarget(entry: string): string {
  const match = LOOPBACK_TARGET.exec(entry);
  const address = match?.[1]?.replace(/^\[|\]$/g, '') ?? '';
  if (!match || !ipaddr.isValid(address) || ipaddr.parse(address).range() !== 'loopback') {
    throw new Error(`Invalid configuration: ${TEST_FETCH_TARGETS_ENV} may only list loopback address:port pairs`);
  }
  return `${ipaddr.parse(address).toString()}:${Number(match[2])}`;
}

export const notAllowed = () => new SafeFetchError('ADDRESS_NOT_ALLOWED', 'That address is not allowed');
export const unreachable = (message = 'The address could not be reached') => new SafeFetchError('UNREACHABLE', message);

export interface Target {
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
