// Publishing to Shopify over HTTP against the twin and its Shopify stand-in (lib/local/fake-shopify.ts): connecting a
// shop through OAuth (HMAC, state, scopes), the token stored sealed, product search, publications through the publish
// workflow (order, placement, idempotency after a fault, the throttle, Shopify's media limits), and what the seller
// sees of them (the result's "published to" link, the publication, the publish.completed webhook).
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import type { Generation } from '../../lambdas/contracts/generations.js';
import type { ConnectedShop, Publication, ShopProduct } from '../../lambdas/contracts/shopify.js';
import { api } from '../support/api.js';
import { injectFault, installShop, newShop, operationsOf, sendShopWebhook, setBucket, shopState, storedResult } from '../support/shopify.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const shopsRepo = await import('../../lambdas/data/shops-repo.js');
const publicationsRepo = await import('../../lambdas/data/publications-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');

const PRODUCTS = [
  { title: 'Red logo T-shirt', sku: 'TEE-RED-01' },
  { title: 'Navy hoodie', sku: 'HOOD-NAVY-02' },
  { title: 'Yellow summer dress', sku: 'DRESS-YEL-03' },
];

async function png(width: number, height: number, colour = '#d01820'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

async function connected(user: TestUser, products = PRODUCTS, options: { grantable?: string[] } = {}) {
  const shop = await newShop(twin, products, options);
  const install = await installShop(twin, user, shop.shop);
  return { shop: shop.shop, install, products: shop.products };
}

const publish = (user: TestUser, body: unknown, key: string = randomUUID()) => api<Publication & { code?: string; error?: string }>(twin.apiUrl, 'POST', '/publications', { user, body, headers: { 'idempotency-key': key } });

async function settledPublication(user: TestUser, id: string, timeoutMs = 150_000): Promise<Publication> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api<Publication>(twin.apiUrl, 'GET', `/publications/${id}`, { user });
    expect(status).toBe(200);
    if (body.status !== 'publishing') return body;
    if (Date.now() > deadline) throw new Error(`publication ${id} still publishing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const mediaOf = async (shop: string, productId: string) => (await shopState(twin, shop)).products.find((product) => product.id === productId)!.media;

describe('connecting a shop', () => {
  it('installs through OAuth, stores the offline token sealed (never answered), and lists the shop', async () => {
    const user = await createUser(twin);
    const { shop, install } = await connected(user);
    expect(install.landedOn.pathname).toBe('/settings');
    expect(install.landedOn.searchParams.get('shopify')).toBe('connected');

    const list = await api<{ items: ConnectedShop[] }>(twin.apiUrl, 'GET', '/shops', { user });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ shop, status: 'connected', scopes: expect.arrayContaining(['write_products', 'write_files']) })]);
    expect(JSON.stringify(list.body)).not.toMatch(/shpat_|shprt_|token/i);

    const stored = await shopsRepo.getShop(shop);
    expect(stored).toMatchObject({ user_id: user.sub, status: 'connected' });
    expect(stored!.access_token).toBeTruthy();
    expect(stored!.refresh_token).toBeTruthy();
    // Sealed: the token Shopify issued is nowhere in the stored item.
    expect(JSON.stringify(stored)).not.toMatch(/shpat_|shprt_/);
    expect((await shopState(twin, shop)).installed).toBe(true);
  });

  it('refuses a callback whose HMAC does not match, and stores nothing', async () => {
    const user = await createUser(twin);
    const shop = await newShop(twin, PRODUCTS);
    const install = await installShop(twin, user, shop.shop, { alterCallback: (url) => url.searchParams.set('shop', shop.shop.replace('test-', 'tesu-')) });
    expect(install.landedOn.searchParams.get('shopify')).toBe('failed');
    const forged = await installShop(twin, user, shop.shop, { alterCallback: (url) => url.searchParams.set('hmac', '0'.repeat(64)) });
    expect(forged.landedOn.searchParams.get('shopify')).toBe('failed');
    expect(await shopsRepo.getShop(shop.shop)).toBeUndefined();
    expect((await api<{ items: unknown[] }>(twin.apiUrl, 'GET', '/shops', { user })).body.items).toEqual([]);
  });

  it('refuses a callback without the state cookie of the browser that started it', async () => {
    const user = await createUser(twin);
    const shop = await newShop(twin, PRODUCTS);
    const install = await installShop(twin, user, shop.shop, { dropCookie: true });
    expect(install.landedOn.searchParams.get('shopify')).toBe('failed');
    expect(await shopsRepo.getShop(shop.shop)).toBeUndefined();
  });

  it('refuses an install that granted fewer scopes than publishing needs', async () => {
    const user = await createUser(twin);
    const { shop, install } = await connected(user, PRODUCTS, { grantable: ['read_products', 'write_products'] });
    expect(install.landedOn.searchParams.get('shopify')).toBe('scopes-missing');
    expect(await shopsRepo.getShop(shop)).toBeUndefined();
  });

  it('finds products by title or SKU, with their thumbnails', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    const byTitle = await api<{ items: ShopProduct[] }>(twin.apiUrl, 'GET', `/shops/${shop}/products?query=${encodeURIComponent('navy hood')}`, { user });
    expect(byTitle.status, JSON.stringify(byTitle.body)).toBe(200);
    expect(byTitle.body.items.map((product) => product.title)).toEqual(['Navy hoodie']);
    expect(byTitle.body.items[0]!.image_url).toMatch(/\/cdn\.shopify\.com\//);
    expect((await fetch(byTitle.body.items[0]!.image_url!)).status).toBe(200);
    const bySku = await api<{ items: ShopProduct[] }>(twin.apiUrl, 'GET', `/shops/${shop}/products?query=DRESS-YEL-03`, { user });
    expect(bySku.body.items.map((product) => product.title)).toEqual(['Yellow summer dress']);
    expect(bySku.body.items[0]!.skus).toEqual(['DRESS-YEL-03']);
  });
});

describe('publishing', () => {
  it('publishes a packshot and a video to a product in that order, and the result links to the product', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    const product = products[0]!;
    const packshot = await storedResult(twin, user, { bytes: await png(800, 800), contentType: 'image/png', width: 800, height: 800, title: 'Red logo T-shirt · Packshot' });
    const video = await storedResult(twin, user, { bytes: Buffer.alloc(40_000, 7), contentType: 'video/mp4', width: 720, height: 1280, seconds: 5, title: 'Red logo T-shirt · Video', operation: 'video' });

    const started = await publish(user, { shop, files: [{ generationId: packshot, productId: product.id }, { generationId: video, productId: product.id }] });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ status: 'publishing', shop, files: [{ status: 'pending' }, { status: 'pending' }] });
    const done = await settledPublication(user, started.body.id);
    expect(done).toMatchObject({ status: 'complete', published: 2, failed: 0 });

    const media = await mediaOf(shop, product.id);
    expect(media.map((item) => [item.filename, item.mediaContentType])).toEqual([
      [`modelloop-${packshot}.png`, 'IMAGE'],
      [`modelloop-${video}.mp4`, 'VIDEO'],
    ]);
    expect(media[0]!.alt).toBe('Red logo T-shirt · Packshot');

    const result = await api<Generation>(twin.apiUrl, 'GET', `/generations/${packshot}`, { user });
    expect(result.body.published).toEqual([expect.objectContaining({ shop, product_id: product.id, product_title: 'Red logo T-shirt', admin_url: expect.stringMatching(new RegExp(`/${shop}/admin/products/\\d+$`)) })]);
    // The link opens the product in the shop's admin.
    expect(await (await fetch(result.body.published![0]!.admin_url)).text()).toContain('Red logo T-shirt');
  });

  it('puts files first when asked, in the order given', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    const product = products[1]!;
    const first = await storedResult(twin, user, { bytes: await png(400, 400), contentType: 'image/png', width: 400, height: 400, title: 'A' });
    const second = await storedResult(twin, user, { bytes: await png(400, 400, '#1f2f5c'), contentType: 'image/png', width: 400, height: 400, title: 'B' });
    const third = await storedResult(twin, user, { bytes: await png(400, 400, '#e0a81c'), contentType: 'image/png', width: 400, height: 400, title: 'C' });
    await settledPublication(user, (await publish(user, { shop, files: [{ generationId: first, productId: product.id }] })).body.id);
    const answer = await publish(user, { shop, placement: 'first', files: [second, third].map((generationId) => ({ generationId, productId: product.id })) });
    expect((await settledPublication(user, answer.body.id)).status).toBe('complete');
    expect((await mediaOf(shop, product.id)).map((item) => item.alt)).toEqual(['B', 'C', 'A']);
  });

  it('answers the same publication to a retried request (same Idempotency-Key), and 409 to the key reused for another', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    const result = await storedResult(twin, user, { bytes: await png(300, 300), contentType: 'image/png', width: 300, height: 300, title: 'Tee' });
    const key = randomUUID();
    const body = { shop, files: [{ generationId: result, productId: products[0]!.id }] };
    const first = await publish(user, body, key);
    const again = await publish(user, body, key);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    await settledPublication(user, first.body.id);
    const other = await publish(user, { ...body, placement: 'first' }, key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await shopState(twin, shop)).files).toHaveLength(1);
  });
});

describe('a batch, and faults on the way', () => {
  /** Three library items (each its own product) with three photos each, as a batch leaves them. */
  async function batchOfThree(user: TestUser) {
    const { shop, products } = await connected(user);
    const photos: { generationId: string; productId: string; itemId: string }[] = [];
    for (const [index, product] of products.entries()) {
      const itemId = `item-${randomUUID().slice(0, 8)}`;
      for (const angle of ['Front', 'Side', 'Back']) {
        const bytes = await png(300 + index * 10, 400, ['#d01820', '#1f2f5c', '#e0a81c'][index]);
        const generationId = await storedResult(twin, user, { bytes, contentType: 'image/png', width: 300 + index * 10, height: 400, title: `${product.title} · ${angle}`, clothingItemId: itemId, operation: 'batch' });
        photos.push({ generationId, productId: product.id, itemId });
      }
    }
    return { shop, products, photos };
  }

  it('publishes nine photos of three items each to its item’s product, and remembers each item’s product', async () => {
    const user = await createUser(twin);
    const { shop, products, photos } = await batchOfThree(user);
    const answer = await publish(user, { shop, files: photos.map(({ generationId, productId }) => ({ generationId, productId })) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(await settledPublication(user, answer.body.id)).toMatchObject({ status: 'complete', published: 9 });
    for (const product of products) {
      const media = await mediaOf(shop, product.id);
      expect(media.map((item) => item.alt)).toEqual(['Front', 'Side', 'Back'].map((angle) => `${product.title} · ${angle}`));
    }
    const matches = await api<{ items: { clothing_item_id: string; product_id: string }[] }>(twin.apiUrl, 'GET', `/shops/${shop}/matches`, { user });
    expect(matches.body.items.map(({ clothing_item_id, product_id }) => [clothing_item_id, product_id]).sort()).toEqual(
      [...new Map(photos.map((photo) => [photo.itemId, photo.productId]))].sort(),
    );
  });

  it('after a lost answer halfway, the step’s retry finds the file by its name: nothing is uploaded twice', async () => {
    const user = await createUser(twin);
    const { shop, products, photos } = await batchOfThree(user);
    // Shopify creates the fifth file, but its answer never arrives (a 502 after the work).
    await injectFault(twin, { shop, operation: 'fileCreate', kind: 'lose-answer', times: 1, after: 4 });
    const answer = await publish(user, { shop, files: photos.map(({ generationId, productId }) => ({ generationId, productId })) });
    expect(await settledPublication(user, answer.body.id)).toMatchObject({ status: 'complete', published: 9 });
    const state = await shopState(twin, shop);
    expect(state.files).toHaveLength(9);
    expect(new Set(state.files.map((file) => file.filename)).size).toBe(9);
    for (const product of products) expect((await mediaOf(shop, product.id)).map((item) => item.alt)).toEqual(['Front', 'Side', 'Back'].map((angle) => `${product.title} · ${angle}`));
    expect((await operationsOf(twin, shop)).filter((fields) => fields.includes('fileCreate'))).toHaveLength(9);
  });

  it('a file Shopify refuses fails with Shopify’s words; publishing again adds only what is missing, nothing twice', async () => {
    const user = await createUser(twin);
    const { shop, products, photos } = await batchOfThree(user);
    await injectFault(twin, { shop, operation: 'fileUpdate', kind: 'refuse', times: 1, after: 4 });
    const files = photos.map(({ generationId, productId }) => ({ generationId, productId }));
    const first = await settledPublication(user, (await publish(user, { shop, files })).body.id);
    expect(first).toMatchObject({ status: 'partial', published: 8, failed: 1 });
    expect(first.files[4]).toMatchObject({ status: 'failed', error: 'Shopify: File has a pending operation.' });

    const retry = await settledPublication(user, (await publish(user, { shop, files })).body.id);
    expect(retry).toMatchObject({ status: 'complete', published: 9 });
    const state = await shopState(twin, shop);
    expect(state.files).toHaveLength(9);
    for (const product of products) expect(await mediaOf(shop, product.id)).toHaveLength(3);
    expect((await operationsOf(twin, shop)).filter((fields) => fields.includes('stagedUploadsCreate'))).toHaveLength(9);
  });

  it('waits out Shopify’s throttle (its cost and bucket) and publishes', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    const result = await storedResult(twin, user, { bytes: await png(300, 300), contentType: 'image/png', width: 300, height: 300, title: 'Tee' });
    await injectFault(twin, { shop, operation: 'fileCreate', kind: 'throttle', times: 2 });
    const done = await settledPublication(user, (await publish(user, { shop, files: [{ generationId: result, productId: products[0]!.id }] })).body.id);
    expect(done.status).toBe('complete');
    expect((await shopState(twin, shop)).files).toHaveLength(1);
    expect((await operationsOf(twin, shop)).filter((fields) => fields.includes('fileCreate'))).toHaveLength(3);
  });

  it('answers 429 with Retry-After when a search is throttled', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    await setBucket(twin, shop, { maximumAvailable: 5, restoreRate: 1 });
    const answer = await api(twin.apiUrl, 'GET', `/shops/${shop}/products?query=tee`, { user });
    expect(answer.status).toBe(429);
    expect(answer.body.code).toBe('SHOPIFY_THROTTLED');
    await setBucket(twin, shop, { maximumAvailable: 2000, restoreRate: 100 });
  });
});

describe('Shopify’s media limits', () => {
  it('refuses a picture over 20 megapixels before anything is sent', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    const upscale = await storedResult(twin, user, { bytes: await png(64, 64), contentType: 'image/png', width: 5760, height: 10240, title: 'Tee · Upscaled to 8K', operation: 'on-model' });
    const before = (await operationsOf(twin, shop)).length;
    const answer = await publish(user, { shop, files: [{ generationId: upscale, productId: products[0]!.id }] });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'FILE_TOO_LARGE', error: 'Tee · Upscaled to 8K: Shopify takes pictures up to 20 megapixels (4472 × 4472); this one is 5760 × 10240' });
    expect(await operationsOf(twin, shop)).toHaveLength(before);
  });

  it('the stand-in refuses what Shopify refuses: a picture over 20 megapixels fails in processing, with Shopify’s reason', async () => {
    const user = await createUser(twin);
    const { shop, products } = await connected(user);
    // The row says 1000 × 1000, the stored bytes are 5000 × 5000 (25 MP): only Shopify's processing can tell.
    const result = await storedResult(twin, user, { bytes: await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer(), contentType: 'image/png', width: 1000, height: 1000, title: 'Big' });
    const done = await settledPublication(user, (await publish(user, { shop, files: [{ generationId: result, productId: products[0]!.id }] })).body.id);
    expect(done).toMatchObject({ status: 'failed', failed: 1 });
    expect(done.files[0]!.error).toBe('Shopify could not process the file: Image resolution 5000x5000 exceeds the maximum of 20 megapixels.');
    expect(await mediaOf(shop, products[0]!.id)).toEqual([]);
  });

  it('refuses a product the shop does not have', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    const result = await storedResult(twin, user, { bytes: await png(100, 100), contentType: 'image/png', width: 100, height: 100, title: 'Tee' });
    const answer = await publish(user, { shop, files: [{ generationId: result, productId: 'gid://shopify/Product/999999999' }] });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('PRODUCT_NOT_FOUND');
  });
});

describe('Shopify’s webhooks', () => {
  async function publishedOne(user: TestUser) {
    const { shop, products } = await connected(user);
    const result = await storedResult(twin, user, { bytes: await png(200, 200), contentType: 'image/png', width: 200, height: 200, title: 'Tee', clothingItemId: `item-${randomUUID().slice(0, 8)}` });
    const publication = await settledPublication(user, (await publish(user, { shop, files: [{ generationId: result, productId: products[0]!.id }] })).body.id);
    expect(publication.status).toBe('complete');
    return { shop, result, publication };
  }

  it('answers 401 to a webhook whose HMAC is not the app’s, and changes nothing', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    for (const topic of ['app/uninstalled', 'customers/data_request', 'customers/redact', 'shop/redact']) {
      expect(await sendShopWebhook(twin, shop, topic, { shop_domain: shop }, true)).toBe(401);
    }
    expect(await shopsRepo.getShop(shop)).toMatchObject({ status: 'connected' });
  });

  it('app/uninstalled ends the connection: its tokens are deleted and Settings says so', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    expect(await sendShopWebhook(twin, shop, 'app/uninstalled', { id: 1, domain: shop, myshopify_domain: shop })).toBe(200);
    const stored = await shopsRepo.getShop(shop);
    expect(stored).toMatchObject({ status: 'uninstalled' });
    expect(stored!.access_token).toBeUndefined();
    expect(stored!.refresh_token).toBeUndefined();
    expect((await api<{ items: ConnectedShop[] }>(twin.apiUrl, 'GET', '/shops', { user })).body.items).toEqual([expect.objectContaining({ shop, status: 'uninstalled' })]);
    const result = await storedResult(twin, user, { bytes: await png(100, 100), contentType: 'image/png', width: 100, height: 100, title: 'Tee' });
    const answer = await publish(user, { shop, files: [{ generationId: result, productId: 'gid://shopify/Product/1' }] });
    expect(answer.body.code).toBe('SHOP_NOT_CONNECTED');
  });

  it('customers/data_request and customers/redact are answered and recorded (ModelLoop holds no customer data)', async () => {
    const user = await createUser(twin);
    const { shop } = await publishedOne(user);
    const before = await publicationsRepo.listShopPublications(user.sub, shop);
    const payload = { shop_id: 1, shop_domain: shop, customer: { id: 191167, email: 'john@example.com', phone: '555-625-1199' }, orders_requested: [299938], data_request: { id: 9999 } };
    expect(await sendShopWebhook(twin, shop, 'customers/data_request', payload)).toBe(200);
    expect(await sendShopWebhook(twin, shop, 'customers/redact', { ...payload, orders_to_redact: [299938] })).toBe(200);
    const receipts = await complianceReceipts(shop);
    expect(receipts.map((receipt) => receipt.topic).sort()).toEqual(['CUSTOMERS_DATA_REQUEST', 'CUSTOMERS_REDACT']);
    expect(receipts.every((receipt) => /stores no data about this shop’s customers/.test(receipt.outcome))).toBe(true);
    expect(await publicationsRepo.listShopPublications(user.sub, shop)).toEqual(before);
  });

  it('shop/redact erases the shop: its connection, publications, matches and the links on the results', async () => {
    const user = await createUser(twin);
    const { shop, result } = await publishedOne(user);
    expect(await sendShopWebhook(twin, shop, 'app/uninstalled', { domain: shop })).toBe(200);
    expect(await sendShopWebhook(twin, shop, 'shop/redact', { shop_id: 1, shop_domain: shop })).toBe(200);
    expect(await shopsRepo.getShop(shop)).toBeUndefined();
    expect(await publicationsRepo.listShopPublications(user.sub, shop)).toEqual([]);
    expect(await publicationsRepo.listMatches(user.sub, shop)).toEqual([]);
    expect(Object.keys((await generationsRepo.getGeneration(user.sub, result))!.published ?? {})).toEqual([]);
    expect((await complianceReceipts(shop)).map((receipt) => receipt.topic)).toEqual(['SHOP_REDACT']);
  });

  /** The compliance receipts of a shop (read straight from the table: no route shows them). */
  async function complianceReceipts(shop: string) {
    const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
    const { dynamo } = await import('../../lambdas/data/dynamo.js');
    const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: twin.env.TABLE_SHOPS!, FilterExpression: 'shop = :shop AND begins_with(id, :prefix)', ExpressionAttributeValues: { ':shop': shop, ':prefix': 'compliance#' } }));
    return Items as { topic: string; outcome: string }[];
  }
});

describe('disconnecting, deleting the account, "Download my data", publish.completed', () => {
  it('Disconnect uninstalls the app from the shop and deletes its tokens', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    const answer = await api(twin.apiUrl, 'DELETE', `/shops/${shop}`, { user });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await shopState(twin, shop)).toMatchObject({ installed: false, tokens: 0 });
    const stored = await shopsRepo.getShop(shop);
    expect(stored).toMatchObject({ status: 'disconnected' });
    expect(stored!.access_token).toBeUndefined();
    expect((await api<{ items: unknown[] }>(twin.apiUrl, 'GET', '/shops', { user })).body.items).toEqual([]);
  });

  it('"Download my data" includes the connected shop (never its token)', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    const { EXPORT_SOURCES } = await import('../../lambdas/domain/account/export-archive.js');
    const shops = await EXPORT_SOURCES.find((source) => source.file === 'shopify-shops.json')!.read(user.sub);
    expect(shops).toEqual([expect.objectContaining({ shop, status: 'connected', scopes: expect.arrayContaining(['write_files']) })]);
    expect(JSON.stringify(shops)).not.toMatch(/token/i);
  });

  it('deleting the account uninstalls the app from its shops and deletes the connections', async () => {
    const user = await createUser(twin);
    const { shop } = await connected(user);
    const answer = await api(twin.apiUrl, 'POST', '/account/delete', { user, body: { confirmEmail: user.email } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const deadline = Date.now() + 120_000;
    while ((await shopsRepo.getShop(shop)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await shopsRepo.getShop(shop)).toBeUndefined();
    expect(await shopState(twin, shop)).toMatchObject({ installed: false, tokens: 0 });
  });

  it('sends publish.completed to the seller’s webhook endpoints, with where each file went', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const user = await createUser(twin);
      const endpoint = await api(twin.apiUrl, 'POST', '/webhooks', { user, body: { url: `${receiver.url}/hooks`, events: ['publish.completed'] } });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const { shop, products } = await connected(user);
      const result = await storedResult(twin, user, { bytes: await png(100, 100), contentType: 'image/png', width: 100, height: 100, title: 'Tee' });
      const publication = await settledPublication(user, (await publish(user, { shop, files: [{ generationId: result, productId: products[0]!.id }] })).body.id);
      const [delivery] = await receiver.waitFor(1, 60_000);
      const event = JSON.parse(delivery!.body) as { type: string; data: Publication };
      expect(event.type).toBe('publish.completed');
      expect(event.data).toMatchObject({ id: publication.id, status: 'complete', files: [{ generation_id: result, status: 'published', admin_url: expect.stringContaining('/admin/products/') }] });
    } finally {
      await receiver.close();
    }
  });
});
