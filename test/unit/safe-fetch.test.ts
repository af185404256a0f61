// The guard of every server-side fetch: which addresses it refuses (checked on their own, and on real fetches
// against a local shop on 127.0.0.1, which only an explicit test allowance opens), that a host is resolved once and
// the connection goes to the checked address, and that redirects, time and size are limited while streaming.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTarget,
  isPublicAddress,
  safeFetch,
  SafeFetchError,
  TEST_FETCH_TARGETS_ENV,
  testTargetsFromEnv,
  type Resolver,
  type SafeFetchOptions,
} from '../../lambdas/net/safe-fetch.js';
import { startSampleShop, type SampleShop } from '../support/sample-shop.js';

const REFUSED_ADDRESSES = [
  '127.0.0.1',
  '127.8.9.10',
  '10.0.0.5',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '100.127.255.254',
  '0.0.0.0',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '240.0.0.1',
  '192.0.2.10',
  '198.18.0.1',
  '::',
  '::1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.5',
  '::ffff:169.254.169.254',
  '::ffff:8.8.8.8',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::7f00:1',
  '2002:7f00:1::1',
  '2001:db8::1',
  'fec0::1',
  'not an address',
];
const PUBLIC_ADDRESSES = ['93.184.215.14', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e'];

describe('address checks', () => {
  it.each(REFUSED_ADDRESSES)('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(PUBLIC_ADDRESSES)('allows the public address %s', (address) => expect(isPublicAddress(address)).toBe(true));

  const publicResolver: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];
  const refusedUrl = (url: string, resolver = publicResolver) =>
    expect(checkTarget(new URL(url), resolver, new Set())).rejects.toMatchObject({ reason: 'ADDRESS_NOT_ALLOWED' });

  it('allows only http and https on ports 80 and 443', async () => {
    await expect(checkTarget(new URL('https://shop.example/p'), publicResolver, new Set())).resolves.toMatchObject({ port: 443, address: '93.184.215.14' });
    await expect(checkTarget(new URL('http://shop.example/p'), publicResolver, new Set())).resolves.toMatchObject({ port: 80 });
    await expect(checkTarget(new URL('http://shop.example:443/p'), publicResolver, new Set())).resolves.toMatchObject({ port: 443 });
    for (const url of ['file:///etc/passwd', 'gopher://shop.example/1', 'ftp://shop.example/a.jpg', 'data:text/html,hi', 'https://shop.example:8443/', 'http://shop.example:22/', 'http://shop.example:6379/']) {
      await refusedUrl(url);
    }
  });

  it('refuses URLs with credentials and literal addresses in every spelling', async () => {
    for (const url of [
      'https://user:secret@shop.example/',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
    ]) {
      await refusedUrl(url);
    }
  });

  it('refuses a host when any address it resolves to is not public', async () => {
    await refusedUrl('https://shop.example/', async () => [{ address: '10.0.0.5', family: 4 }]);
    await refusedUrl('https://shop.example/', async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::1', family: 6 },
    ]);
    await expect(checkTarget(new URL('https://nowhere.example/'), async () => [], new Set())).rejects.toMatchObject({ reason: 'UNREACHABLE' });
  });

  it('takes test targets only as loopback address:port pairs, and never inside a Lambda runtime', () => {
    expect([...testTargetsFromEnv({ [TEST_FETCH_TARGETS_ENV]: '127.0.0.1:4000, [::1]:4001' })]).toEqual(['127.0.0.1:4000', '::1:4001']);
    expect(() => testTargetsFromEnv({ [TEST_FETCH_TARGETS_ENV]: '169.254.169.254:80' })).toThrow(/loopback/);
    expect(() => testTargetsFromEnv({ [TEST_FETCH_TARGETS_ENV]: '10.0.0.5:80' })).toThrow(/loopback/);
    expect(() => testTargetsFromEnv({ [TEST_FETCH_TARGETS_ENV]: '127.0.0.1' })).toThrow(/loopback/);
    expect(testTargetsFromEnv({ [TEST_FETCH_TARGETS_ENV]: '127.0.0.1:9001', AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' }).size).toBe(0);
  });
});

describe('fetching through the guard', () => {
  let shop: SampleShop;
  let options: (extra?: Partial<SafeFetchOptions>) => SafeFetchOptions;
  beforeAll(async () => {
    shop = await startSampleShop();
    options = (extra = {}) => ({ maxBytes: 12 * 1024 * 1024, testTargets: [`127.0.0.1:${shop.port}`], ...extra });
  });
  afterAll(() => shop?.close());

  const reasonOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SafeFetchError);
    return (error as SafeFetchError).reason;
  };

  it('refuses the local shop without the explicit test allowance', async () => {
    expect(await reasonOf(safeFetch(`${shop.url}/og-only`, { maxBytes: 1024 * 1024 }))).toBe('ADDRESS_NOT_ALLOWED');
    expect(shop.hits.get('/og-only') ?? 0).toBe(0);
  });

  it('fetches a page with a browser-like User-Agent and follows up to 3 redirects', async () => {
    const page = await safeFetch(`${shop.url}/redirect/3`, options());
    expect(page).toMatchObject({ url: `${shop.url}/products/linen-shirt`, status: 200, contentType: 'text/html' });
    expect(page.bytes.toString('utf8')).toContain('Linen shirt');
    expect(await reasonOf(safeFetch(`${shop.url}/redirect/4`, options()))).toBe('TOO_MANY_REDIRECTS');
  });

  it('checks every redirect again: to the metadata address, to loopback on port 80', async () => {
    expect(await reasonOf(safeFetch(`${shop.url}/to-metadata`, options()))).toBe('ADDRESS_NOT_ALLOWED');
    expect(await reasonOf(safeFetch(`${shop.url}/to-loopback`, options()))).toBe('ADDRESS_NOT_ALLOWED');
  });

  it('resolves a host name once and connects to the checked address, whatever a second answer would say', async () => {
    const asked: string[] = [];
    // A rebinding resolver: the first answer is the (allowed) shop, any later one a private address.
    const rebinding: Resolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: asked.length === 1 ? '127.0.0.1' : '10.0.0.5', family: 4 } satisfies LookupAddress];
    };
    const page = await safeFetch(`http://shop.test:${shop.port}/og-only`, options({ resolve: rebinding }));
    expect(page.status).toBe(200);
    expect(asked).toEqual(['shop.test']);
  });

  it('refuses a host name that resolves to a private address', async () => {
    const privateResolver: Resolver = async () => [{ address: '10.0.0.5', family: 4 }];
    expect(await reasonOf(safeFetch(`http://intranet.test/`, options({ resolve: privateResolver })))).toBe('ADDRESS_NOT_ALLOWED');
    const metadataResolver: Resolver = async () => [{ address: '169.254.169.254', family: 4 }];
    expect(await reasonOf(safeFetch(`http://metadata.test/`, options({ resolve: metadataResolver })))).toBe('ADDRESS_NOT_ALLOWED');
  });

  it('stops reading at the byte limit, with or without a declared length', async () => {
    const declared = await safeFetch(`${shop.url}/images/huge.jpg`, options()).catch((error: SafeFetchError) => error);
    expect(declared).toMatchObject({ reason: 'TOO_LARGE', details: { sizeBytes: 20 * 1024 * 1024, limitBytes: 12 * 1024 * 1024 } });
    const streamed = await safeFetch(`${shop.url}/images/huge-unannounced.jpg`, options()).catch((error: SafeFetchError) => error);
    expect(streamed).toMatchObject({ reason: 'TOO_LARGE', details: { limitBytes: 12 * 1024 * 1024 } });
    expect(await reasonOf(safeFetch(`${shop.url}/products/linen-shirt`, options({ maxBytes: () => 100 })))).toBe('TOO_LARGE');
  });

  it('unpacks gzip and brotli answers, and counts the unpacked bytes against the limit', async () => {
    const gzipped = await safeFetch(`${shop.url}/gzipped-page`, options());
    expect(gzipped.bytes.toString('utf8')).toContain('<h1>Gzipped shirt</h1>');
    const brotli = await safeFetch(`${shop.url}/brotli-page`, options());
    expect(brotli.bytes.toString('utf8')).toContain('<h1>Brotli shirt</h1>');
    const bomb = await safeFetch(`${shop.url}/gzip-bomb`, options()).catch((error: SafeFetchError) => error);
    expect(bomb).toMatchObject({ reason: 'TOO_LARGE', details: { limitBytes: 12 * 1024 * 1024 } });
  });

  it('ends a slow answer at the time limit', async () => {
    expect(await reasonOf(safeFetch(`${shop.url}/slow`, options({ timeoutMs: 500 })))).toBe('TIMEOUT');
  });

  it('answers a missing page as HTTP_ERROR with its status', async () => {
    const error = await safeFetch(`${shop.url}/missing`, options()).catch((caught: SafeFetchError) => caught);
    expect(error).toMatchObject({ reason: 'HTTP_ERROR', details: { status: 404 } });
  });
});
