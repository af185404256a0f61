// The address rule of every server-side fetch, as the seller, the shop's developer and the provider would meet it: one
// table of addresses, each run through every path that uses the guard (webhook registration, webhook delivery, a
// product link import, a provider's result download), both as a literal address in the URL and as what a host name
// resolves to. An address is allowed only in global unicast space outside every IANA special-purpose block. A test
// network stands in for DNS and for the connection an allowed address gets (a local receiver answers it), so no test
// reaches the internet. The domain runs in this process with the cloud's rules (no loopback webhooks); the two
// addresses the issue found are also tried over HTTP against the twin.
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IMPORT_CODES } from '../../lambdas/contracts/imports.js';
import { WEBHOOKS_ALLOW_LOCAL_ENV } from '../../lambdas/domain/webhooks/rules.js';
import { useTestNetwork, type TestNetwork } from '../../lambdas/net/address-guard.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
delete process.env[WEBHOOKS_ALLOW_LOCAL_ENV];
const { createWebhook } = await import('../../lambdas/domain/webhooks/register.js');
const { deleteWebhook } = await import('../../lambdas/domain/webhooks/endpoints.js');
const { deliverAttempt } = await import('../../lambdas/domain/webhooks/delivery.js');
const { createImport } = await import('../../lambdas/domain/imports/service.js');
const { fetchOutputImage } = await import('../../lambdas/providers/fashn/outputs.js');

/** Refused: everything outside global unicast, and every special-purpose block inside it. */
const REFUSED = [
  // IPv4
  '0.0.0.0', // this network, 0.0.0.0/8
  '0.1.2.3',
  '10.0.0.1', // private
  '10.255.255.254',
  '100.64.0.1', // CGNAT 100.64/10
  '100.127.255.254',
  '127.0.0.1', // loopback
  '127.255.255.254',
  '169.254.169.254', // link-local, the instance metadata service
  '169.254.0.1',
  '172.16.0.1', // private
  '172.31.255.254',
  '192.0.0.1', // IETF protocol assignments
  '192.0.0.170', // NAT64 discovery
  '192.0.2.10', // documentation TEST-NET-1
  '192.31.196.1', // AS112
  '192.52.193.1', // AMT
  '192.88.99.1', // deprecated 6to4 relay anycast
  '192.168.1.1', // private
  '192.175.48.1', // AS112 direct delegation
  '198.18.0.1', // benchmarking 198.18/15
  '198.19.255.254',
  '198.51.100.7', // documentation TEST-NET-2
  '203.0.113.9', // documentation TEST-NET-3
  '224.0.0.1', // multicast
  '239.255.255.250',
  '240.0.0.1', // reserved 240/4
  '250.1.2.3',
  '255.255.255.255', // broadcast
  // IPv6 outside 2000::/3, including every form that embeds an IPv4 address
  '::', // unspecified
  '::1', // loopback
  '::169.254.169.254', // IPv4-compatible (::/96): the metadata service
  '::10.0.0.1',
  '::127.0.0.1',
  '::8.8.8.8', // IPv4-compatible, even of a public address
  '::ffff:127.0.0.1', // IPv4-mapped
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:8.8.8.8',
  '::ffff:0:10.0.0.1', // IPv4-translated (SIIT)
  '64:ff9b::a9fe:a9fe', // NAT64 64:ff9b::/96 of 169.254.169.254
  '64:ff9b::10.0.0.1',
  '64:ff9b::8.8.8.8',
  '64:ff9b:1::a00:1', // local-use NAT64 64:ff9b:1::/48
  '100::1', // discard-only
  '5f00::1', // SRv6 SIDs
  '4000::1', // unassigned, outside 2000::/3
  'fc00::1', // unique local fc00::/7
  'fd12:3456:789a::1',
  'fe80::1', // link-local
  'febf::1',
  'fec0::1', // site-local fec0::/10
  'feff::1',
  'ff02::1', // multicast
  'ff05::1:3',
  // IPv6 special-purpose blocks inside 2000::/3
  '2001::1', // Teredo 2001::/32
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:2::1', // benchmarking
  '2001:10::1', // ORCHID
  '2001:20::1', // ORCHIDv2
  '2001:db8::1', // documentation
  '2001:db8:85a3::8a2e:370:7334',
  '2002:a00:1::1', // 6to4 of 10.0.0.1
  '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2620:4f:8000::1', // AS112 direct delegation
  '3fff::1', // documentation 3fff::/20
];
const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '11.0.0.1', // just past 10/8
  '100.63.255.254', // just below CGNAT
  '100.128.0.1', // just past CGNAT
  '169.253.255.1',
  '172.32.0.1', // just past 172.16/12
  '192.0.1.1',
  '198.20.0.1', // just past 198.18/15
  '223.255.255.1', // last unicast /8 before multicast
  '2606:4700:4700::1111',
  '2a00:1450:4001:81c::200e',
  '2001:4860:4860::8888', // 2001:4860::/32 is outside 2001::/23
  '2001:200::1', // just past 2001::/23
  '2003::1', // just past 6to4
  '2620:0:ccc::2',
  '2400:cb00::1',
];
const TABLE = [...REFUSED.map((address) => ({ address, allowed: false })), ...ALLOWED.map((address) => ({ address, allowed: true }))];
const literal = (address: string, path: string) => (address.includes(':') ? `https://[${address}]${path}` : `https://${address}${path}`);

/** The local receiver every allowed connection lands on: it records the address the guard checked. */
const landed: { address: string; path: string }[] = [];
let receiverPort = 0;
let png: Buffer;
/** What each test host name resolves to right now. */
const dns = new Map<string, string>();
const testNetwork: TestNetwork = {
  resolve: async (hostname) => {
    const address = dns.get(hostname);
    if (!address) throw new Error(`ENOTFOUND ${hostname}`);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  },
  send: (url, target, init) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port: receiverPort, path: `${url.pathname}${url.search}`, method: init.method, signal: init.signal, headers: { ...init.headers, 'x-checked-address': target.address } },
        resolve,
      );
      request.on('error', reject);
      request.end(init.body);
    }),
};
const receiver = createServer((req, res) => {
  landed.push({ address: String(req.headers['x-checked-address']), path: req.url ?? '' });
  req.resume();
  if (req.url?.startsWith('/hooks')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
});
const landedAt = (address: string) => landed.filter((entry) => entry.address === address);

let user: TestUser;
beforeAll(async () => {
  png = await tshirtPhoto(400, 500);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  receiverPort = (receiver.address() as AddressInfo).port;
  useTestNetwork(testNetwork);
  user = await createUser(twin);
});
afterAll(async () => {
  useTestNetwork(undefined);
  await new Promise((resolve) => receiver.close(resolve));
});

const outcome = async (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    (value) => ({ ok: value }),
    (error: { code?: string; kind?: string; reason?: string }) => ({ refused: error.code ?? error.kind ?? error.reason ?? String(error) }),
  );

describe('the address table', () => {
  it(`has at least 60 addresses (${TABLE.length})`, () => expect(TABLE.length).toBeGreaterThanOrEqual(60));
});

describe.each(TABLE)('$address (allowed: $allowed)', ({ address, allowed }) => {
  const host = `${randomUUID().slice(0, 8)}.address-table.test`;

  it('webhook registration, as a literal and as what the host resolves to', async () => {
    dns.set(host, address);
    for (const url of [literal(address, '/hooks'), `https://${host}/hooks`]) {
      const result = await outcome(createWebhook(user.sub, { url, events: ['generation.completed'] }));
      // Whatever was registered goes again, so one wrong answer never fills the user's endpoint limit for the next.
      const created = (result as { ok?: { id: string } }).ok;
      if (created) await deleteWebhook(user.sub, created.id);
      if (allowed) expect(result, url).toMatchObject({ ok: { url: expect.any(String) } });
      else expect(result, url).toEqual({ refused: 'WEBHOOK_URL_NOT_ALLOWED' });
    }
  });

  it('webhook delivery to an endpoint whose host resolves to it by the time of the delivery', async () => {
    dns.set(host, '93.184.215.14');
    const endpoint = await createWebhook(user.sub, { url: `https://${host}/hooks/${encodeURIComponent(address)}`, events: ['generation.completed'] });
    dns.set(host, address);
    const event = { id: `evt_${randomUUID().replaceAll('-', '')}`, type: 'webhook.test' as const, timestamp: new Date().toISOString(), resourceId: endpoint.id };
    const next = await deliverAttempt({ userId: user.sub, endpointId: endpoint.id, event, attempt: 1, delays: [5] }, { local: false });
    await deleteWebhook(user.sub, endpoint.id);
    if (allowed) {
      expect(next.outcome).toBe('delivered');
      expect(landedAt(address).some((entry) => entry.path.startsWith('/hooks/'))).toBe(true);
    } else {
      expect(next).toMatchObject({ outcome: 'retry', waitSeconds: 5 });
      expect(landedAt(address)).toEqual([]);
    }
  });

  it('a product link import, as a literal and as what the host resolves to', async () => {
    dns.set(host, address);
    for (const url of [literal(address, '/product.png'), `https://${host}/product.png`]) {
      const result = await outcome(createImport(randomUUID(), url));
      if (allowed) expect(result, url).toMatchObject({ ok: { candidates: [{ source: 'direct', width: 400, height: 500 }] } });
      else expect(result, url).toEqual({ refused: IMPORT_CODES.notAllowed });
    }
    // Refused: nothing reached the address; allowed: the connection went to the address the guard checked.
    if (allowed) expect(landedAt(address).filter((entry) => entry.path === '/product.png')).toHaveLength(2);
    else expect(landedAt(address)).toEqual([]);
  });

  it("a provider's result download, as a literal and as what the host resolves to", async () => {
    dns.set(host, address);
    const policy = { allowedHosts: () => true, allowInsecureHttp: false };
    for (const url of [literal(address, '/output_0.png'), `https://${host}/output_0.png`]) {
      const result = await outcome(fetchOutputImage(url, policy, AbortSignal.timeout(10_000)));
      if (allowed) expect(result, url).toEqual({ ok: png });
      else expect(result, url).toEqual({ refused: 'failed' });
    }
    // Refused: nothing reached the address; allowed: the connection went to the address the guard checked.
    if (allowed) expect(landedAt(address).filter((entry) => entry.path === '/output_0.png')).toHaveLength(2);
    else expect(landedAt(address)).toEqual([]);
  });
});

describe('over HTTP on the twin', () => {
  it.each(['https://[::169.254.169.254]/', 'https://[::10.0.0.1]/'])('%s is refused as a webhook target and as an import link', async (url) => {
    const registered = await api(twin.apiUrl, 'POST', '/webhooks', { user, body: { url, events: ['generation.completed'] } });
    expect(registered).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_NOT_ALLOWED' } });
    const imported = await api(twin.apiUrl, 'POST', '/imports', { user, body: { url } });
    expect(imported).toMatchObject({ status: 400, body: { code: IMPORT_CODES.notAllowed } });
  });
});
