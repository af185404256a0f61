// Which addresses a server-side fetch may reach, on their own: the scheme, credentials and port of a URL, and every
// address its host resolves to (global unicast only, unless a test or the twin opens loopback). Registration checks
// (a webhook's address) use it without pulling in the transport; `safe-fetch.ts` checks every hop with it.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
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

/** One request on a connection to the checked address (safe-fetch.ts sends it; a test network may answer it). */
export type Send = (
  url: URL,
  target: Target,
  init: { method: string; headers: OutgoingHttpHeaders; body: string | undefined; signal: AbortSignal },
) => Promise<IncomingMessage>;

/** A test's stand-in for DNS and for the connection made after the check: no test reaches the internet. */
export interface TestNetwork {
  resolve: Resolver;
  send: Send;
}

let testNetwork: TestNetwork | undefined;

/**
 * Replaces DNS and the connection for every guarded fetch and check in this process that names no resolver of its
 * own (imports, webhook registration and delivery, provider downloads); undefined restores the system's. The address
 * rules stay as they are: only what resolution answers and where an allowed connection lands change.
 */
export function useTestNetwork(network: TestNetwork | undefined): void {
  if (network && process.env.AWS_LAMBDA_RUNTIME_API) throw new Error('A test network cannot be used inside a Lambda runtime');
  testNetwork = network;
}

/** The test network's connection, when a test set one. */
export const testSend = (): Send | undefined => testNetwork?.send;

/** How host names become addresses unless a caller says otherwise: the system's DNS, or the test network's. */
export const defaultResolver: Resolver = (hostname) => (testNetwork ? testNetwork.resolve(hostname) : systemResolver(hostname));

/**
 * Where a server-side fetch may go: global unicast space (public IPv4, IPv6 2000::/3), less every block of IANA's
 * IPv4 and IPv6 special-purpose address registries, and multicast. Everything outside is refused, so a range nobody
 * listed (an IPv6 form that embeds an IPv4 address, a block assigned next year) is refused by default.
 */
const GLOBAL_UNICAST = ['0.0.0.0/0', '2000::/3'].map((cidr) => ipaddr.parseCIDR(cidr));

const SPECIAL_PURPOSE = [
  // IPv4 (RFC 6890 and its updates): this network, private, CGNAT, loopback, link-local, IETF protocol
  // assignments, documentation, AS112 and AMT, the deprecated 6to4 relay, benchmarking, multicast, reserved, broadcast.
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.31.196.0/24',
  '192.52.193.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '192.175.48.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
  // IPv6 inside 2000::/3: IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID, AMT…), documentation
  // (2001:db8::/32, 3fff::/20), 6to4 (2002::/16, which embeds an IPv4 address), AS112 direct delegation.
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '2620:4f:8000::/48',
  '3fff::/20',
].map((cidr) => ipaddr.parseCIDR(cidr));

/** True only for a global unicast address outside every special-purpose block (see above). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // Only the dotted quad: the shorthand forms ipaddr.js also reads (0x7f.1, 2130706433) are no resolver's answer.
  if (parsed.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(address)) return false;
  const within = (range: [ipaddr.IPv4 | ipaddr.IPv6, number]) => parsed.kind() === range[0].kind() && parsed.match(range);
  return GLOBAL_UNICAST.some(within) && !SPECIAL_PURPOSE.some(within);
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
