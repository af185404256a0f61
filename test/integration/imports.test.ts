// Importing a product photo from a link, over HTTP on the twin, as a new user would: each kind of sample page of the
// local shop (test/support/sample-shop.ts, whose port alone the twin's fetch guard opens) gives the right first
// candidate; a picked candidate is stored in the caller's folder and taken by the screens' routes like an upload;
// every address of the refusal list is refused with its code, with nothing stored and nothing charged.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
const shop = inject('sampleShopUrl');
const SIGNUP_CREDITS = 5;

const local = { endpoint: '', region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS };
const s3 = new S3Client({ ...local, endpoint: twin.env.AWS_ENDPOINT_URL_S3, forcePathStyle: true });
const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ ...local, endpoint: twin.env.AWS_ENDPOINT_URL_DYNAMODB }));
const importsTable = twin.env.TABLE_IMPORTS!;

const importFrom = (user: TestUser, url: string) => api(twin.apiUrl, 'POST', '/imports', { user, body: { url } });
const select = (user: TestUser, importId: string, imageUrl: string, purpose: string) =>
  api(twin.apiUrl, 'POST', `/imports/${importId}/select`, { user, body: { imageUrl, purpose } });

async function storedKeys(user: TestUser): Promise<string[]> {
  const keys: string[] = [];
  for (const bucket of [twin.env.BUCKET_CLOTHING_IMAGES!, twin.env.BUCKET_RESULTS!]) {
    const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${user.sub}/` }));
    keys.push(...Contents.map((object) => object.Key!));
  }
  return keys;
}

async function storedImports(user: TestUser): Promise<unknown[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({ TableName: importsTable, KeyConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': user.sub } }),
  );
  return Items;
}

async function balanceOf(user: TestUser): Promise<number> {
  return (await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits;
}

async function expectNothingStored(user: TestUser): Promise<void> {
  expect(await storedKeys(user)).toEqual([]);
  expect(await storedImports(user)).toEqual([]);
  expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
}

describe('POST /imports: the candidates of each kind of page', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(twin);
  });

  it('a Shopify product: the images of its /products/<handle>.json first, then og:image', async () => {
    const answer = await importFrom(user, `${shop}/products/linen-shirt`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { candidates } = answer.body;
    expect(candidates.map((candidate: { imageUrl: string; source: string }) => [candidate.imageUrl, candidate.source])).toEqual([
      [`${shop}/cdn/shirt-front.jpg?v=1`, 'shopify'],
      [`${shop}/cdn/shirt-back.jpg?v=1`, 'shopify'],
      [`${shop}/cdn/shirt-social.jpg`, 'og:image'],
    ]);
    expect(candidates[0]).toMatchObject({ mimeType: 'image/jpeg', width: 800, height: 1000, sizeBytes: expect.any(Number) });
    expect(candidates[0].previewUrl).toMatch(/^data:image\/jpeg;base64,/);
    expect(answer.body.importId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(answer.body.expiresAt) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
  });

  it('a WooCommerce page: JSON-LD Product.image before og:image', async () => {
    const answer = await importFrom(user, `${shop}/product/silk-scarf/`);
    expect(answer.status).toBe(201);
    expect(answer.body.candidates.map((candidate: { imageUrl: string; source: string }) => [candidate.imageUrl, candidate.source])).toEqual([
      [`${shop}/wp-content/uploads/silk-scarf.jpg`, 'json-ld'],
      [`${shop}/wp-content/uploads/silk-scarf-social.jpg`, 'og:image'],
    ]);
  });

  it('a page with only og:image, a direct image link, and a plain page (its largest main-content image)', async () => {
    const og = await importFrom(user, `${shop}/og-only`);
    expect(og.body.candidates).toEqual([expect.objectContaining({ imageUrl: `${shop}/images/og-dress.png`, source: 'og:image', mimeType: 'image/png', width: 640, height: 800 })]);
    const direct = await importFrom(user, `${shop}/cdn/shirt-back.jpg`);
    expect(direct.body.candidates).toEqual([expect.objectContaining({ imageUrl: `${shop}/cdn/shirt-back.jpg`, source: 'direct', width: 800, height: 1000 })]);
    const plain = await importFrom(user, `${shop}/plain-bag`);
    expect(plain.body.candidates).toEqual([expect.objectContaining({ imageUrl: `${shop}/images/hero-bag.jpg`, source: 'img', width: 1000, height: 1000 })]);
  });

  it('follows a chain of 3 redirects to the product', async () => {
    const answer = await importFrom(user, `${shop}/redirect/3`);
    expect(answer.status).toBe(201);
    expect(answer.body.pageUrl).toBe(`${shop}/redirect/3`);
    expect(answer.body.candidates[0].imageUrl).toBe(`${shop}/cdn/shirt-front.jpg?v=1`);
  });
});

describe('POST /imports/{id}/select: the picked image, checked like an upload, for each screen', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(twin);
  });

  it('stores the Shopify photo for a clothing item, which the library registers from its key', async () => {
    const imported = await importFrom(user, `${shop}/products/linen-shirt`);
    const picked = await select(user, imported.body.importId, `${shop}/cdn/shirt-front.jpg?v=1`, 'clothing');
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toMatchObject({ mimeType: 'image/jpeg', width: 800, height: 1000 });
    expect(picked.body.imageKey).toMatch(new RegExp(`^${user.sub}/\\d{13}-[0-9a-f]{16}\\.jpg$`));
    expect((await fetch(picked.body.previewUrl)).status).toBe(200);

    const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: picked.body.imageKey, name: 'Linen shirt' } });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(item.body).toMatchObject({ name: 'Linen shirt', image_url: picked.body.imageKey, mime_type: 'image/jpeg' });
  });

  it('stores an image for Image Generation, which generate-ai-image takes as its imageKey', async () => {
    const imported = await importFrom(user, `${shop}/og-only`);
    const picked = await select(user, imported.body.importId, `${shop}/images/og-dress.png`, 'image');
    expect(picked.status).toBe(200);
    const started = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { imageKey: picked.body.imageKey, productType: 'clothing', prompt: 'young female model' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ status: 'processing', remainingCredits: SIGNUP_CREDITS - 1 });
  });

  it("holds each screen to its own upload limit: a 7.3 MB photo is fine for images, too large for a video", async () => {
    const imported = await importFrom(user, `${shop}/noise-page`);
    expect(imported.status).toBe(201);
    const candidate = imported.body.candidates[0];
    expect(candidate.sizeBytes).toBeGreaterThan(6 * 1024 * 1024);
    const before = await storedKeys(user);
    const forVideo = await select(user, imported.body.importId, candidate.imageUrl, 'video');
    expect(forVideo).toMatchObject({ status: 413, body: { code: 'IMAGE_TOO_LARGE' } });
    expect(forVideo.body.error).toMatch(/^The image is too large \(7\.\d+ MB, the limit is 6 MB\)$/);
    expect(await storedKeys(user)).toEqual(before);
    const forImage = await select(user, imported.body.importId, candidate.imageUrl, 'image');
    expect(forImage.status).toBe(200);
  });

  it('selects only a candidate of the same, unexpired import of the same user', async () => {
    const first = await importFrom(user, `${shop}/og-only`);
    const second = await importFrom(user, `${shop}/product/silk-scarf/`);
    const before = await storedKeys(user);
    const foreign = await select(user, first.body.importId, second.body.candidates[0].imageUrl, 'image');
    expect(foreign).toMatchObject({ status: 400, body: { code: 'NOT_A_CANDIDATE', error: 'Please pick one of the images found on that page' } });
    const anyUrl = await select(user, first.body.importId, 'http://169.254.169.254/latest/meta-data/', 'image');
    expect(anyUrl.body.code).toBe('NOT_A_CANDIDATE');

    const stranger = await createUser(twin);
    const notTheirs = await select(stranger, first.body.importId, first.body.candidates[0].imageUrl, 'image');
    expect(notTheirs).toMatchObject({ status: 404, body: { code: 'IMPORT_NOT_FOUND' } });

    const expiredId = randomUUID();
    await dynamo.send(
      new PutCommand({
        TableName: importsTable,
        Item: {
          user_id: user.sub,
          id: expiredId,
          page_url: `${shop}/og-only`,
          candidates: [{ url: `${shop}/images/og-dress.png`, source: 'og:image', mime_type: 'image/png', size_bytes: 1, width: 640, height: 800 }],
          created_at: new Date(Date.now() - 2 * 3600_000).toISOString(),
          expires_at: Math.floor(Date.now() / 1000) - 3600,
        },
      }),
    );
    const expired = await select(user, expiredId, `${shop}/images/og-dress.png`, 'image');
    expect(expired).toMatchObject({ status: 404, body: { code: 'IMPORT_NOT_FOUND', error: 'This import has expired. Please paste the link again' } });
    expect(await storedKeys(user)).toEqual(before);
  });

  it('checks the downloaded bytes themselves: a candidate that has become a web page is refused and not stored', async () => {
    const fresh = await createUser(twin);
    const imported = await importFrom(fresh, `${shop}/changing-page?${randomUUID()}`);
    expect(imported.status).toBe(201);
    const picked = await select(fresh, imported.body.importId, imported.body.candidates[0].imageUrl, 'clothing');
    expect(picked).toMatchObject({ status: 400, body: { code: 'INVALID_FILE_TYPE' } });
    expect(await storedKeys(fresh)).toEqual([]);
  });
});

describe('refusals: each with its code, nothing stored, nothing charged', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(twin);
  });

  const refused = async (url: string, status: number, code: string, error: string | RegExp) => {
    const answer = await importFrom(user, url);
    expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(status);
    expect(answer.body.code, url).toBe(code);
    expect(answer.body.error, url).toMatch(error);
  };

  it('addresses inside our own network, named directly or through a redirect or a host name', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      // localhost resolves to a loopback address; the test allowance covers only the shop's own port.
      'http://localhost/',
      `${shop}/to-metadata`,
      `${shop}/to-loopback`,
    ]) {
      await refused(url, 400, 'URL_NOT_ALLOWED', /^That address isn't allowed$/);
    }
    await expectNothingStored(user);
  });

  it('other schemes and ports', async () => {
    for (const url of ['file:///etc/passwd', 'gopher://example.com/1', 'ftp://example.com/a.jpg', 'http://example.com:8080/', 'https://example.com:8443/p', 'http://user:pw@example.com/']) {
      await refused(url, 400, 'URL_NOT_ALLOWED', /^That address isn't allowed$/);
    }
    await expectNothingStored(user);
  });

  it('a link pasted without a scheme is read as https:// and judged by the address guard; free text is still no address', async () => {
    for (const url of ['127.0.0.1:8080/page', 'localhost:8080/page', '10.0.0.5/admin', '[::1]:8080/', '169.254.169.254/latest/meta-data/']) {
      await refused(url, 400, 'URL_NOT_ALLOWED', /^That address isn't allowed$/);
    }
    // The shop answers http only: read as https://, its own address is tried over TLS (so it is fetched, and fails to answer).
    const shopWithoutScheme = `${new URL(shop).host}/products/linen-shirt`;
    const tried = await importFrom(user, shopWithoutScheme);
    expect(tried.status, JSON.stringify(tried.body)).toBe(422);
    expect(tried.body.code).toBe('PAGE_UNREACHABLE');
    // A public-looking shop link is an address too (the twin reaches no internet: unreachable, never "Enter a web address").
    const outside = await importFrom(user, 'shop.example/p/1');
    expect(outside.body.error).not.toBe('Enter a web address, e.g. https://…');
    expect(outside.body.code).not.toBe('VALIDATION_ERROR');
    for (const text of ['linen shirt', 'linen', 'blue logo tee, size M']) {
      await refused(text, 400, 'VALIDATION_ERROR', /Enter a web address/);
    }
    await expectNothingStored(user);
  });

  it('more than 3 redirects, a body over the limits, HTML served as an image, a page without a product image', async () => {
    await refused(`${shop}/redirect/4`, 422, 'TOO_MANY_REDIRECTS', /^We couldn't reach that page/);
    await refused(`${shop}/images/huge.jpg`, 413, 'IMAGE_TOO_LARGE', /^The image is too large \(20 MB, the limit is 12 MB\)$/);
    await refused(`${shop}/images/huge-unannounced.jpg`, 413, 'IMAGE_TOO_LARGE', /^The image is too large \(over 12 MB, the limit is 12 MB\)$/);
    await refused(`${shop}/huge-page`, 422, 'PAGE_TOO_LARGE', /^We couldn't read that page: it is larger than 2 MB$/);
    await refused(`${shop}/images/page-as-image.jpg`, 400, 'INVALID_FILE_TYPE', /^That link is not a JPEG, PNG or WebP image$/);
    await refused(`${shop}/no-image`, 422, 'NO_PRODUCT_IMAGE', /^No product image found on that page$/);
    await refused(`${shop}/missing-page`, 422, 'PAGE_UNREACHABLE', /^We couldn't reach that page$/);
    await expectNothingStored(user);
  });

  it('a server slower than the time limit', async () => {
    await refused(`${shop}/slow`, 422, 'FETCH_TIMEOUT', /^We couldn't reach that page/);
    await expectNothingStored(user);
  });
});

describe('per-user limit', () => {
  it('answers the 31st import of a minute with 429 and Retry-After', async () => {
    const user = await createUser(twin);
    // A fixed one-minute window: start early in one, so all 31 requests fall into it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 100));
    const answers = await Promise.all(Array.from({ length: 30 }, () => importFrom(user, `${shop}/no-image`)));
    expect(answers.map((answer) => answer.body.code)).toEqual(Array(30).fill('NO_PRODUCT_IMAGE'));
    const response = await fetch(`${twin.apiUrl}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${shop}/og-only` }),
    });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
