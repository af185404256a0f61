// The parts of publishing to Shopify that need no twin: Shopify's media limits, the search the studio sends and the
// stand-in's reading of it, the wait a throttled answer asks for, the tokens' sealing, the stand-in's addresses, and
// the publish workflow's one-at-a-time Map.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mediaLimitProblem, ShopDomain } from '../../lambdas/contracts/shopify.js';
import { secretValueEnvName } from '../../lambdas/core/secrets.js';
import { PUBLISH_CONCURRENCY, WORKFLOWS } from '../../lambdas/workflows.js';
import { oauthHmac, searchFilter } from '../../lib/local/fake-shopify.js';

process.env[secretValueEnvName('shopTokenKey')] = 'unit-test-key';
const { productSearchQuery } = await import('../../lambdas/domain/shopify/products.js');
const { throttleWaitSeconds } = await import('../../lambdas/domain/shopify/admin.js');
const { seal, unseal } = await import('../../lambdas/domain/shopify/tokens.js');
const { shopifyUrl } = await import('../../lambdas/domain/shopify/app.js');

const root = resolve(import.meta.dirname, '../..');

describe("Shopify's media limits", () => {
  it('takes pictures up to 20 MB and 20 megapixels, and says which limit a larger one breaks', () => {
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 5_000_000, width: 2048, height: 2048 })).toBeUndefined();
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 5_000_000, width: 4472, height: 4472 })).toBeUndefined();
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 5_000_000, width: 4473, height: 1000 })?.code).toBe('FILE_TOO_LARGE');
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 5_000_000, width: 5760, height: 10240 })).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'Shopify takes pictures up to 20 megapixels (4472 × 4472); this one is 5760 × 10240',
    });
    expect(mediaLimitProblem({ contentType: 'image/jpeg', bytes: 21 * 1024 * 1024, width: 1000, height: 1000 })?.message).toBe('Shopify takes pictures up to 20 MB; this one is 21.0 MB');
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 1000, width: 4400, height: 40 })?.message).toBe('Shopify takes pictures no more than 100 times wider than tall, or taller than wide');
    expect(mediaLimitProblem({ contentType: 'image/png', bytes: 1000, width: 4000, height: 40 })).toBeUndefined();
  });

  it('takes videos up to 1 GB, 10 minutes and 4K, and no other kind of file', () => {
    expect(mediaLimitProblem({ contentType: 'video/mp4', bytes: 30_000_000, width: 720, height: 1280, seconds: 16 })).toBeUndefined();
    expect(mediaLimitProblem({ contentType: 'video/mp4', bytes: 30_000_000, width: 720, height: 1280, seconds: 601 })?.message).toBe('Shopify takes videos up to 10 minutes; this one is 601 seconds');
    expect(mediaLimitProblem({ contentType: 'video/mp4', bytes: 1025 * 1024 * 1024 })?.message).toMatch(/^Shopify takes videos up to 1 GB/);
    expect(mediaLimitProblem({ contentType: 'video/mp4', bytes: 1000, width: 4096, height: 2160 })?.code).toBe('FILE_TOO_LARGE');
    expect(mediaLimitProblem({ contentType: 'video/mp4', bytes: 1000, width: 2160, height: 3840 })).toBeUndefined();
    expect(mediaLimitProblem({ contentType: 'application/zip', bytes: 1000 })).toEqual({ code: 'UNSUPPORTED_FILE_TYPE', message: 'Shopify takes PNG, JPEG, GIF or WebP pictures and MP4 videos' });
  });
});

describe('shop addresses', () => {
  it('reads a handle, a domain or an admin link as the shop’s permanent domain, and refuses anything else', () => {
    expect(ShopDomain.parse('My-Shop')).toBe('my-shop.myshopify.com');
    expect(ShopDomain.parse(' https://my-shop.myshopify.com/admin/products ')).toBe('my-shop.myshopify.com');
    expect(ShopDomain.safeParse('shop.example.com').success).toBe(false);
    expect(ShopDomain.safeParse('evil.myshopify.com.example.com').success).toBe(false);
  });
});

describe('product search', () => {
  const products = [
    { title: 'Red logo T-shirt', sku: ['TEE-RED-01'] },
    { title: 'Navy hoodie', sku: ['HOOD-NAVY-02'] },
    { title: 'Navy "Sailor" cap', sku: ['CAP:NAVY'] },
  ];
  const found = (text: string) => products.filter(searchFilter(productSearchQuery(text)!)).map((product) => product.title);

  it('matches every word of the title, or the whole text as a SKU, as Shopify’s search syntax reads them', () => {
    expect(productSearchQuery('navy hood')).toBe('(title:*navy* AND title:*hood*) OR sku:"navy hood"');
    expect(found('navy hood')).toEqual(['Navy hoodie']);
    expect(found('NAVY')).toEqual(['Navy hoodie', 'Navy "Sailor" cap']);
    expect(found('TEE-RED-01')).toEqual(['Red logo T-shirt']);
    expect(productSearchQuery('   ')).toBeUndefined();
  });

  it('escapes what the syntax reserves, so a SKU with quotes or a colon is still one term', () => {
    expect(productSearchQuery('CAP:NAVY')).toBe('(title:*CAPNAVY*) OR sku:"CAP:NAVY"');
    expect(found('CAP:NAVY')).toEqual(['Navy "Sailor" cap']);
    expect(productSearchQuery('a"b\\c')).toBe('(title:*abc*) OR sku:"a\\"b\\\\c"');
  });
});

describe('the throttle', () => {
  it('waits until the bucket holds the query’s cost again, at its restore rate', () => {
    expect(throttleWaitSeconds({ requestedQueryCost: 202, throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 118, restoreRate: 50 } })).toBe(2);
    expect(throttleWaitSeconds({ requestedQueryCost: 10, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 } })).toBe(1);
    expect(throttleWaitSeconds({ requestedQueryCost: 900, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 } })).toBe(9);
    expect(throttleWaitSeconds(undefined)).toBe(2);
  });
});

describe('sealed tokens', () => {
  it('open only with the shop they were sealed for, and never show the token', async () => {
    const sealed = await seal('shpat_0123456789abcdef', 'one.myshopify.com');
    expect(sealed).not.toContain('shpat_');
    expect(await unseal(sealed, 'one.myshopify.com')).toBe('shpat_0123456789abcdef');
    await expect(unseal(sealed, 'two.myshopify.com')).rejects.toThrow();
    expect(await seal('shpat_0123456789abcdef', 'one.myshopify.com')).not.toBe(sealed);
  });
});

describe('the stand-in', () => {
  it('is reached at <origin>/<host>/<path> for every https address of Shopify, only when set', () => {
    expect(shopifyUrl('https://a.myshopify.com/admin/api/2026-10/graphql.json?x=1', 'http://127.0.0.1:9')).toBe('http://127.0.0.1:9/a.myshopify.com/admin/api/2026-10/graphql.json?x=1');
    expect(shopifyUrl('https://cdn.shopify.com/s/files/1/1/files/a.png', undefined)).toBe('https://cdn.shopify.com/s/files/1/1/files/a.png');
  });

  it('signs OAuth redirects as Shopify documents: hex HMAC-SHA256 of the sorted query without hmac', () => {
    // Shopify's documented example (its OAuth guide, quoted by hexdocs.pm/exshopify Shopify.HMAC): secret "hush".
    const params = { code: '0907a61c0c8d55e99db179b68161bc00', timestamp: '1337178173', shop: 'some-shop.myshopify.com' };
    expect(oauthHmac(params, 'hush')).toBe('4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20');
  });
});

describe('the publish workflow', () => {
  it('publishes one file at a time: its Map’s MaxConcurrency is PUBLISH_CONCURRENCY, which the budget counts', () => {
    const asl = JSON.parse(readFileSync(join(root, 'lib/workflows', WORKFLOWS.publish.asl), 'utf8')) as { States: { Files: { MaxConcurrency: number } } };
    expect(PUBLISH_CONCURRENCY).toBe(1);
    expect(asl.States.Files.MaxConcurrency).toBe(PUBLISH_CONCURRENCY);
  });
});
