// A loopback stand-in for Shopify, written from shopify.dev's documents (read 2026-11-27), for the twin and the tests:
// the app's handlers reach it through SHOPIFY_STAND_IN_ORIGIN (`https://<host>/<path>` → `<origin>/<host>/<path>`,
// lambdas/domain/shopify/app.ts), the browser through the same addresses. It answers in Shopify's documented shapes
// and refuses what Shopify refuses:
//
//   OAuth ("Implement authorization code grant manually", shopify.dev/docs/apps/build/authentication-authorization/
//   access-tokens/authorization-code-grant): GET https://<shop>/admin/oauth/authorize shows the install screen for the
//   app's client_id (an unknown client, a redirect_uri the app does not list, an unknown scope: refused); "Install"
//   redirects to redirect_uri with code, hmac, host, shop, state, timestamp (hmac: hex HMAC-SHA256, keyed with the
//   client secret, of the other parameters sorted and joined as a query string). POST …/admin/oauth/access_token
//   exchanges a code once (expiring=1: { access_token, scope, expires_in: 3600, refresh_token,
//   refresh_token_expires_in }, "Offline access tokens now support expiry and refresh", shopify.dev/changelog) and
//   a refresh token (grant_type refresh_token) once, rotating it.
//
//   The GraphQL Admin API (POST https://<shop>/admin/api/<version>/graphql.json, X-Shopify-Access-Token): a subset of
//   the 2026-10 schema in SDL, executed by graphql-js, for the queries and mutations the app sends
//   (lambdas/domain/shopify/admin.ts). Every answer carries extensions.cost { requestedQueryCost, actualQueryCost,
//   throttleStatus { maximumAvailable, currentlyAvailable, restoreRate } } from a leaky bucket per shop (Standard plan:
//   100 points/second, "GraphQL Admin API rate limits"); a query the bucket can't hold answers HTTP 200 with
//   errors [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] and no data. A field the token's scopes don't
//   allow answers ACCESS_DENIED; an unknown or expired token, 401.
//
//   Staged uploads (stagedUploadsCreate → a multipart POST to the target, "Manage media for products and collections",
//   shopify.dev/docs/apps/build/product-merchandising/products-and-collections/manage-media): the target checks its
//   signed parameters and the size the upload declared; fileCreate takes the resourceUrl; the file is processed
//   (UPLOADED → PROCESSING → READY) and FAILED with Shopify's FileErrorCode when over the media limits (a picture
//   over 20 MB or 20 megapixels, a video over 1 GB). fileUpdate(referencesToAdd) adds a READY file to a product's
//   media, productReorderMedia moves it.
//
//   Webhooks: signed deliveries (X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of the raw body with the client secret)
//   of app/uninstalled (after appUninstall, or a merchant's uninstall) and the compliance topics.
//
// Tests drive it over HTTP under /_fake/ (they run in other processes than the twin): shops and products, faults
// (throttle, a 500, a lost answer), what a product's media are, the operations it received, and webhooks to send.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildSchema, graphql, GraphQLError, parse, type DocumentNode, type FieldNode, type SelectionSetNode } from 'graphql';
import { DEMO_PRODUCTS } from './products.js';

/** The API versions the fake serves (Shopify answers 404 for a version it does not know). */
const API_VERSIONS = ['2026-01', '2026-04', '2026-07', '2026-10', 'unstable'];
/** The scopes Shopify knows that the app may ask for (a subset of shopify.dev/docs/api/usage/access-scopes). */
const KNOWN_SCOPES = ['read_products', 'write_products', 'read_files', 'write_files', 'read_orders', 'write_orders', 'read_customers', 'write_customers'];
/** Standard plan: 100 points a second; the bucket holds 20 seconds of them. */
const DEFAULT_BUCKET = { maximumAvailable: 2000, restoreRate: 100 };
/** The most a single query may cost. */
const MAX_QUERY_COST = 1000;
const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 90 * 24 * 3600;
const CODE_SECONDS = 600;
/** How many status reads a file stays UPLOADED/PROCESSING before it is READY. */
const PROCESSING_READS = { IMAGE: 1, VIDEO: 2 } as const;
const MB = 1024 * 1024;
const LIMITS = { imageBytes: 20 * MB, imageSide: 4472, videoBytes: 1024 * MB } as const;
const STORAGE_HOST = 'shopify-staged-uploads.storage.googleapis.com';
const CDN_HOST = 'cdn.shopify.com';

export interface FakeShopifyApp {
  apiKey: string;
  apiSecret: string;
  /** The allowed redirection URLs of the app (its Partner Dashboard settings). */
  redirectUrls: string[];
  /** Where the app's webhooks (app/uninstalled and the compliance topics) are delivered. */
  webhookUrl?: string;
}

export interface FakeProductSeed {
  title: string;
  sku: string;
  /** SVG shapes on a 600×700 canvas: its thumbnail. */
  shapes?: string;
}

interface FakeProduct {
  id: number;
  title: string;
  handle: string;
  status: 'ACTIVE' | 'DRAFT';
  skus: string[];
  shapes: string;
  /** File gids, in the product's media order. */
  media: string[];
  updatedAt: string;
}

interface FakeFileError {
  code: string;
  message: string;
  details: string | null;
}

interface FakeFile {
  gid: string;
  kind: 'IMAGE' | 'VIDEO';
  filename: string;
  alt: string | null;
  mimeType: string;
  bytes: number;
  width?: number;
  height?: number;
  createdAt: string;
  /** Status reads so far (it becomes READY after PROCESSING_READS of them). */
  reads: number;
  errors: FakeFileError[];
  /** Where its bytes are (under the data directory). */
  blob: string;
}

interface FakeShop {
  domain: string;
  name: string;
  id: number;
  installed: boolean;
  /** The scopes the merchant grants of those asked (all of them when absent). */
  grantable?: string[];
  products: FakeProduct[];
  files: FakeFile[];
  bucket: { maximumAvailable: number; restoreRate: number; available: number; at: number };
}

interface Token {
  shop: string;
  scopes: string[];
  expiresAt: number;
}

interface Staged {
  shop: string;
  key: string;
  filename: string;
  mimeType: string;
  resource: string;
  maxBytes: number;
  signature: string;
  /** Set once the bytes were posted (the blob's name). */
  blob?: string;
  bytes?: number;
}

/**
 * 'throttle': the THROTTLED answer (the bucket emptied); 'server-error': a 500, nothing done; 'lose-answer': done, then
 * a 502 (the work happened, its answer was lost); 'refuse': a mutation's userErrors (FILE_LOCKED), nothing done.
 */
export type FaultKind = 'throttle' | 'server-error' | 'lose-answer' | 'refuse';
interface Fault {
  shop?: string;
  /** A root field of the operation (fileCreate, fileUpdate, files, stagedUploadsCreate…), or 'upload' for the staged target. */
  operation: string;
  kind: FaultKind;
  times: number;
  /** Matching requests let through before the fault starts. */
  after?: number;
}

interface State {
  nextId: number;
  shops: Record<string, FakeShop>;
  tokens: Record<string, Token>;
  refreshTokens: Record<string, Token>;
  codes: Record<string, Token & { used: boolean }>;
  staged: Record<string, Staged>;
}

/** One GraphQL request as the fake saw it. */
export interface ReceivedOperation {
  shop: string;
  fields: string[];
  at: string;
}

export interface FakeShopify {
  /** http://127.0.0.1:<port>: SHOPIFY_STAND_IN_ORIGIN of the app. */
  origin: string;
  app: FakeShopifyApp;
  /** The demo shop (DEMO_SHOP), with the demo studio's products. */
  demoShop: string;
  addShop(domain: string, options?: { name?: string; products?: FakeProductSeed[]; grantable?: string[] }): void;
  /** Sends one of Shopify's signed webhooks to the app; answers the app's status. */
  sendWebhook(topic: string, shop: string, payload: unknown, options?: { tamper?: boolean }): Promise<number>;
  stop(): Promise<void>;
}

export const DEMO_SHOP = 'modelloop-demo.myshopify.com';

export async function startFakeShopify(options: { app: FakeShopifyApp; port?: number; dataDir: string; log?: (line: string) => void }): Promise<FakeShopify> {
  const { app } = options;
  const log = options.log ?? (() => undefined);
  mkdirSync(join(options.dataDir, 'blobs'), { recursive: true });
  const stateFile = join(options.dataDir, 'state.json');
  const state: State = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as State) : { nextId: 1001, shops: {}, tokens: {}, refreshTokens: {}, codes: {}, staged: {} };
  const save = () => writeFileSync(stateFile, JSON.stringify(state));
  const faults: Fault[] = [];
  const received: ReceivedOperation[] = [];
  const schema = buildSchema(SCHEMA);
  let origin = '';

  const newId = () => state.nextId++;
  const nowIso = () => new Date().toISOString();
  const cdnUrl = (shop: FakeShop, path: string) => `https://${CDN_HOST}/s/files/1/${shop.id}/${path}`;

  function addShop(domain: string, { name, products, grantable }: { name?: string; products?: FakeProductSeed[]; grantable?: string[] } = {}): void {
    if (state.shops[domain]) return;
    const seeds = products ?? [];
    state.shops[domain] = {
      domain,
      name: name ?? domain.replace(/\.myshopify\.com$/, ''),
      id: newId(),
      installed: false,
      ...(grantable ? { grantable } : {}),
      products: seeds.map((seed) => ({
        id: newId(),
        title: seed.title,
        handle: seed.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
        status: 'ACTIVE',
        skus: [seed.sku],
        shapes: seed.shapes ?? '<rect x="150" y="150" width="300" height="400" fill="#94a3b8"/>',
        media: [],
        updatedAt: nowIso(),
      })),
      files: [],
      bucket: { ...DEFAULT_BUCKET, available: DEFAULT_BUCKET.maximumAvailable, at: Date.now() },
    };
    save();
  }

  addShop(DEMO_SHOP, {
    name: 'ModelLoop Demo Shop',
    products: DEMO_PRODUCTS.map((product, index) => ({ title: product.name, sku: `ML-DEMO-${String(index + 1).padStart(3, '0')}`, shapes: product.shapes })),
  });

  // ——— Webhooks to the app ———

  async function sendWebhook(topic: string, domain: string, payload: unknown, { tamper = false } = {}): Promise<number> {
    if (!app.webhookUrl) throw new Error('The fake Shopify app has no webhook URL');
    const body = JSON.stringify(payload);
    const hmac = createHmac('sha256', app.apiSecret).update(body).digest('base64');
    const response = await fetch(app.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-hmac-sha256': tamper ? createHmac('sha256', 'not-the-secret').update(body).digest('base64') : hmac,
        'x-shopify-shop-domain': domain,
        'x-shopify-api-version': '2026-10',
        'x-shopify-webhook-id': randomBytes(16).toString('hex'),
        'x-shopify-triggered-at': nowIso(),
        'x-shopify-event-id': randomBytes(16).toString('hex'),
      },
      body,
    });
    await response.arrayBuffer();
    log(`webhook ${topic} for ${domain}: ${response.status}`);
    return response.status;
  }

  /** The app is removed from the shop: every token dies, and Shopify tells the app (app/uninstalled, its shop as data). */
  function uninstall(shop: FakeShop): void {
    shop.installed = false;
    for (const tokens of [state.tokens, state.refreshTokens]) for (const [token, owner] of Object.entries(tokens)) if (owner.shop === shop.domain) delete tokens[token];
    save();
    setTimeout(() => {
      sendWebhook('app/uninstalled', shop.domain, { id: shop.id, name: shop.name, domain: shop.domain, myshopify_domain: shop.domain }).catch((error: unknown) => log(`app/uninstalled not delivered: ${String(error)}`));
    }, 0);
  }

  // ——— OAuth ———

  function authorize(res: ServerResponse, shop: FakeShop, query: URLSearchParams): void {
    const clientId = query.get('client_id');
    const redirectUri = query.get('redirect_uri') ?? '';
    const scopes = (query.get('scope') ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
    if (clientId !== app.apiKey) return html(res, 400, '<h1>Oauth error invalid_request: The client_id is invalid.</h1>');
    if (!app.redirectUrls.some((allowed) => redirectUri === allowed || redirectUri.startsWith(`${allowed}?`))) {
      return html(res, 400, '<h1>Oauth error invalid_request: The redirect_uri is not whitelisted.</h1>');
    }
    const unknown = scopes.filter((scope) => !KNOWN_SCOPES.includes(scope));
    if (unknown.length) return html(res, 400, `<h1>Oauth error invalid_scope: ${escapeHtml(unknown.join(', '))}</h1>`);
    const fields = ['client_id', 'redirect_uri', 'scope', 'state'].map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query.get(name) ?? '')}">`).join('');
    html(
      res,
      200,
      `<h1>Install app</h1><p>ModelLoop will be able to: ${escapeHtml(scopes.join(', '))}</p><p>Shop: ${escapeHtml(shop.name)}</p>` +
        `<form method="post" action="${origin}/${shop.domain}/admin/oauth/authorize/install">${fields}<button type="submit">Install</button></form>`,
    );
  }

  function install(res: ServerResponse, shop: FakeShop, form: URLSearchParams): void {
    const asked = (form.get('scope') ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
    const granted = shop.grantable ? asked.filter((scope) => shop.grantable!.includes(scope)) : asked;
    const code = randomBytes(16).toString('hex');
    state.codes[code] = { shop: shop.domain, scopes: granted, expiresAt: Date.now() + CODE_SECONDS * 1000, used: false };
    shop.installed = true;
    save();
    const params: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.domain.replace(/\.myshopify\.com$/, '')}`).toString('base64url'),
      shop: shop.domain,
      state: form.get('state') ?? '',
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    const redirect = new URL(form.get('redirect_uri') ?? '');
    for (const [name, value] of Object.entries(params)) redirect.searchParams.set(name, value);
    redirect.searchParams.set('hmac', oauthHmac(params, app.apiSecret));
    res.writeHead(302, { location: redirect.toString() }).end();
  }

  function accessToken(res: ServerResponse, shop: FakeShop, body: Record<string, string>): void {
    if (body.client_id !== app.apiKey || body.client_secret !== app.apiSecret) return json(res, 400, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    let grant: Token | undefined;
    if (body.grant_type === 'refresh_token') {
      grant = state.refreshTokens[body.refresh_token ?? ''];
      if (!grant || grant.shop !== shop.domain || grant.expiresAt < Date.now()) return json(res, 400, { error: 'invalid_grant', error_description: 'The refresh token is invalid or expired.' });
      delete state.refreshTokens[body.refresh_token!];
    } else {
      const code = state.codes[body.code ?? ''];
      if (!code || code.used || code.shop !== shop.domain || code.expiresAt < Date.now()) return json(res, 400, { error: 'invalid_request', error_description: 'The authorization code was not found or was already used.' });
      code.used = true;
      grant = code;
    }
    const expiring = body.grant_type === 'refresh_token' || body.expiring === '1';
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    state.tokens[token] = { shop: shop.domain, scopes: grant.scopes, expiresAt: expiring ? Date.now() + ACCESS_TOKEN_SECONDS * 1000 : Number.MAX_SAFE_INTEGER };
    const answer: Record<string, unknown> = { access_token: token, scope: grant.scopes.join(',') };
    if (expiring) {
      const refresh = `shprt_${randomBytes(16).toString('hex')}`;
      state.refreshTokens[refresh] = { shop: shop.domain, scopes: grant.scopes, expiresAt: Date.now() + REFRESH_TOKEN_SECONDS * 1000 };
      Object.assign(answer, { expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refresh, refresh_token_expires_in: REFRESH_TOKEN_SECONDS });
    }
    save();
    json(res, 200, answer);
  }

  // ——— The GraphQL Admin API ———

  interface Context {
    shop: FakeShop;
    scopes: string[];
  }

  const has = (context: Context, scope: string) => context.scopes.includes(scope) || (scope.startsWith('read_') && context.scopes.includes(scope.replace(/^read_/, 'write_')));
  function need(context: Context, field: string, ...anyOf: string[]): void {
    if (anyOf.some((scope) => has(context, scope))) return;
    const required = anyOf.map((scope) => `\`${scope}\` access scope`).join(' or ');
    throw new GraphQLError(`Access denied for ${field} field. Required access: ${required}.`, undefined, undefined, undefined, undefined, undefined, {
      code: 'ACCESS_DENIED',
      documentation: 'https://shopify.dev/api/usage/access-scopes',
      requiredAccess: `${required}.`,
    });
  }

  const productGid = (product: FakeProduct) => `gid://shopify/Product/${product.id}`;
  const findProduct = (shop: FakeShop, gid: string) => shop.products.find((product) => productGid(product) === gid);
  const findFile = (shop: FakeShop, gid: string) => shop.files.find((file) => file.gid === gid);

  function fileStatus(file: FakeFile): string {
    if (file.errors.length) return 'FAILED';
    return file.reads >= PROCESSING_READS[file.kind] ? 'READY' : file.reads === 0 ? 'UPLOADED' : 'PROCESSING';
  }

  function fileView(shop: FakeShop, file: FakeFile) {
    const status = fileStatus(file);
    const image = status === 'READY' ? { url: cdnUrl(shop, `files/${file.filename}`), width: file.width ?? null, height: file.height ?? null, altText: file.alt } : null;
    return {
      __typename: file.kind === 'IMAGE' ? 'MediaImage' : 'Video',
      id: file.gid,
      alt: file.alt,
      createdAt: file.createdAt,
      fileStatus: status,
      status,
      fileErrors: file.errors,
      mediaErrors: file.errors,
      mediaContentType: file.kind,
      mimeType: file.mimeType,
      filename: file.filename,
      image,
      preview: { status, image },
    };
  }

  function productView(shop: FakeShop, product: FakeProduct) {
    const media = product.media.map((gid) => findFile(shop, gid)).filter((file): file is FakeFile => Boolean(file)).map((file) => fileView(shop, file));
    const thumbnail = { url: cdnUrl(shop, `products/${product.handle}.svg`), width: 600, height: 700, altText: product.title };
    return {
      __typename: 'Product',
      id: productGid(product),
      title: product.title,
      handle: product.handle,
      status: product.status,
      updatedAt: product.updatedAt,
      featuredMedia: media[0] ?? { __typename: 'MediaImage', id: `gid://shopify/MediaImage/${product.id}0`, alt: product.title, mediaContentType: 'IMAGE', status: 'READY', fileStatus: 'READY', fileErrors: [], mediaErrors: [], createdAt: product.updatedAt, image: thumbnail, preview: { status: 'READY', image: thumbnail } },
      media: ({ first }: { first?: number }) => ({ nodes: media.slice(0, first ?? 250) }),
      variants: ({ first }: { first?: number }) => ({ nodes: product.skus.slice(0, first ?? 250).map((sku, index) => ({ __typename: 'ProductVariant', id: `gid://shopify/ProductVariant/${product.id}${index}`, sku })) }),
    };
  }

  const root = {
    shop: (_: unknown, context: Context) => ({ name: context.shop.name, myshopifyDomain: context.shop.domain }),
    products: ({ first, query, sortKey, reverse }: { first?: number; query?: string; sortKey?: string; reverse?: boolean }, context: Context) => {
      need(context, 'products', 'read_products');
      const matches = query ? searchFilter(query) : () => true;
      let products = context.shop.products.filter((product) => matches({ title: product.title, sku: product.skus }));
      if (sortKey === 'UPDATED_AT' || sortKey === 'TITLE') products = [...products].sort((a, b) => (sortKey === 'TITLE' ? a.title.localeCompare(b.title) : a.updatedAt.localeCompare(b.updatedAt)));
      if (reverse) products = [...products].reverse();
      return { nodes: products.slice(0, first ?? 50).map((product) => productView(context.shop, product)) };
    },
    nodes: ({ ids }: { ids: string[] }, context: Context) =>
      ids.map((id) => {
        const product = findProduct(context.shop, id);
        if (product) {
          need(context, 'nodes', 'read_products');
          return productView(context.shop, product);
        }
        const file = findFile(context.shop, id);
        return file ? fileView(context.shop, file) : null;
      }),
    node: ({ id }: { id: string }, context: Context) => {
      const file = findFile(context.shop, id);
      if (file) {
        need(context, 'node', 'read_files', 'read_products');
        file.reads++;
        save();
        return fileView(context.shop, file);
      }
      const product = findProduct(context.shop, id);
      return product ? productView(context.shop, product) : null;
    },
    files: ({ first, query }: { first?: number; query?: string }, context: Context) => {
      need(context, 'files', 'read_files', 'write_files');
      const named = query && /^filename:"?([^"]+)"?$/.exec(query.trim())?.[1];
      const files = context.shop.files.filter((file) => !named || file.filename === named);
      return { nodes: files.slice(0, first ?? 50).map((file) => fileView(context.shop, file)) };
    },
    stagedUploadsCreate: ({ input }: { input: { filename: string; mimeType: string; resource: string; httpMethod?: string; fileSize?: string }[] }, context: Context) => {
      need(context, 'stagedUploadsCreate', 'write_files', 'write_products');
      const userErrors: { field: string[]; message: string }[] = [];
      const targets = input.map((upload, index) => {
        if (upload.resource === 'VIDEO' && !upload.fileSize) userErrors.push({ field: ['input', String(index), 'fileSize'], message: 'File size is required for video uploads.' });
        if (upload.resource === 'VIDEO' && Number(upload.fileSize) > LIMITS.videoBytes) userErrors.push({ field: ['input', String(index), 'fileSize'], message: 'Video file size exceeds the maximum of 1 GB.' });
        const key = `tmp/${context.shop.id}/products/${randomBytes(8).toString('hex')}/${upload.filename}`;
        const maxBytes = upload.resource === 'VIDEO' ? Number(upload.fileSize) : LIMITS.imageBytes;
        const policy = Buffer.from(JSON.stringify({ conditions: [['content-length-range', upload.resource === 'VIDEO' ? maxBytes : 0, maxBytes]] })).toString('base64');
        const signature = createHmac('sha256', app.apiSecret).update(`${key}\n${policy}`).digest('hex');
        state.staged[key] = { shop: context.shop.domain, key, filename: upload.filename, mimeType: upload.mimeType, resource: upload.resource, maxBytes, signature };
        return {
          url: `https://${STORAGE_HOST}/`,
          resourceUrl: `https://${STORAGE_HOST}/${key}`,
          parameters: [
            { name: 'Content-Type', value: upload.mimeType },
            { name: 'success_action_status', value: '201' },
            { name: 'acl', value: 'private' },
            { name: 'key', value: key },
            { name: 'x-goog-algorithm', value: 'GOOG4-RSA-SHA256' },
            { name: 'x-goog-date', value: new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '') },
            { name: 'policy', value: policy },
            { name: 'x-goog-signature', value: signature },
          ],
        };
      });
      save();
      return userErrors.length ? { stagedTargets: null, userErrors } : { stagedTargets: targets, userErrors };
    },
    fileCreate: async ({ files }: { files: { originalSource: string; contentType?: string; filename?: string; alt?: string; duplicateResolutionMode?: string }[] }, context: Context) => {
      need(context, 'fileCreate', 'write_files');
      const created: ReturnType<typeof fileView>[] = [];
      const userErrors: { field: string[]; message: string; code: string }[] = [];
      for (const [index, input] of files.entries()) {
        const key = input.originalSource.replace(`https://${STORAGE_HOST}/`, '');
        const staged = state.staged[key];
        if (!staged || staged.shop !== context.shop.domain) {
          userErrors.push({ field: ['files', String(index), 'originalSource'], message: 'Image URL is invalid', code: 'INVALID_IMAGE_SOURCE_URL' });
          continue;
        }
        let filename = input.filename ?? staged.filename;
        if (extensionOf(filename) !== extensionOf(staged.filename)) {
          userErrors.push({ field: ['files', String(index), 'filename'], message: 'Cannot create file with custom filename which does not match original source extension.', code: 'MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE' });
          continue;
        }
        if (context.shop.files.some((file) => file.filename === filename)) {
          if (input.duplicateResolutionMode === 'RAISE_ERROR') {
            userErrors.push({ field: ['files', String(index), 'filename'], message: 'The provided filename already exists.', code: 'FILENAME_ALREADY_EXISTS' });
            continue;
          }
          filename = filename.replace(/(\.[^.]+)$/, `_${randomBytes(4).toString('hex')}$1`);
        }
        const kind = input.contentType === 'VIDEO' || staged.resource === 'VIDEO' ? 'VIDEO' : 'IMAGE';
        const file: FakeFile = {
          gid: `gid://shopify/${kind === 'IMAGE' ? 'MediaImage' : 'Video'}/${newId()}`,
          kind,
          filename,
          alt: input.alt ?? null,
          mimeType: staged.mimeType,
          bytes: staged.bytes ?? 0,
          createdAt: nowIso(),
          reads: 0,
          errors: [],
          blob: staged.blob ?? '',
        };
        file.errors = await processingErrors(file, staged);
        context.shop.files.push(file);
        created.push(fileView(context.shop, file));
      }
      save();
      return { files: userErrors.length ? null : created, userErrors };
    },
    fileUpdate: ({ files }: { files: { id: string; alt?: string; referencesToAdd?: string[]; referencesToRemove?: string[] }[] }, context: Context) => {
      need(context, 'fileUpdate', 'write_files');
      const updated: ReturnType<typeof fileView>[] = [];
      const userErrors: { field: string[]; message: string; code: string }[] = [];
      for (const [index, input] of files.entries()) {
        const file = findFile(context.shop, input.id);
        if (!file) {
          userErrors.push({ field: ['files', String(index), 'id'], message: 'File does not exist.', code: 'FILE_DOES_NOT_EXIST' });
          continue;
        }
        if (fileStatus(file) !== 'READY') {
          userErrors.push({ field: ['files', String(index), 'id'], message: 'Non-ready files are not supported.', code: 'NON_READY_STATE' });
          continue;
        }
        const adding = (input.referencesToAdd ?? []).map((gid) => ({ gid, product: findProduct(context.shop, gid) }));
        const missing = adding.find(({ product }) => !product);
        if (missing) {
          userErrors.push({ field: ['files', String(index), 'referencesToAdd'], message: `The reference target does not exist: ${missing.gid}.`, code: 'REFERENCE_TARGET_DOES_NOT_EXIST' });
          continue;
        }
        for (const { product } of adding) {
          if (!product!.media.includes(file.gid)) product!.media.push(file.gid);
          product!.updatedAt = nowIso();
        }
        for (const gid of input.referencesToRemove ?? []) {
          const product = findProduct(context.shop, gid);
          if (product) product.media = product.media.filter((media) => media !== file.gid);
        }
        if (input.alt !== undefined) file.alt = input.alt;
        updated.push(fileView(context.shop, file));
      }
      save();
      return { files: updated, userErrors };
    },
    productReorderMedia: ({ id, moves }: { id: string; moves: { id: string; newPosition: string }[] }, context: Context) => {
      need(context, 'productReorderMedia', 'write_products');
      const product = findProduct(context.shop, id);
      if (!product) return { job: null, mediaUserErrors: [{ field: ['id'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }] };
      for (const move of moves) {
        if (!product.media.includes(move.id)) return { job: null, mediaUserErrors: [{ field: ['moves'], message: 'Media does not exist on the given product.', code: 'MEDIA_DOES_NOT_EXIST_ON_PRODUCT' }] };
        const rest = product.media.filter((media) => media !== move.id);
        rest.splice(Math.min(Number(move.newPosition), rest.length), 0, move.id);
        product.media = rest;
      }
      save();
      return { job: { id: `gid://shopify/Job/${randomBytes(8).toString('hex')}`, done: true }, mediaUserErrors: [] };
    },
    appUninstall: (_: unknown, context: Context) => {
      uninstall(context.shop);
      return { app: { id: `gid://shopify/App/${createHash('sha256').update(app.apiKey).digest('hex').slice(0, 8)}` }, userErrors: [] };
    },
  };

  /** What Shopify's processing would say of a file over the media limits (FileErrorCode). */
  async function processingErrors(file: FakeFile, staged: Staged): Promise<FakeFileError[]> {
    if (!staged.blob) return [{ code: 'GENERIC_FILE_DOWNLOAD_FAILURE', message: 'File could not be processed because the source could not be downloaded.', details: null }];
    if (file.kind === 'VIDEO') {
      return file.bytes > LIMITS.videoBytes ? [{ code: 'GENERIC_FILE_INVALID_SIZE', message: 'File could not be created because the size is too large.', details: null }] : [];
    }
    if (file.bytes > LIMITS.imageBytes) return [{ code: 'INVALID_IMAGE_FILE_SIZE', message: 'Image exceeds the maximum file size of 20 MB.', details: null }];
    const { default: sharp } = await import('sharp');
    try {
      const { width = 0, height = 0 } = await sharp(readFileSync(join(options.dataDir, 'blobs', staged.blob))).metadata();
      file.width = width;
      file.height = height;
      if (Math.max(width, height) > LIMITS.imageSide) {
        return [{ code: 'INVALID_IMAGE_RESOLUTION', message: `Image resolution ${width}x${height} exceeds the maximum of 20 megapixels.`, details: null }];
      }
      return [];
    } catch {
      return [{ code: 'UNSUPPORTED_IMAGE_FILE_TYPE', message: 'Image file type is not supported.', details: null }];
    }
  }

  /** The query's estimated cost: 10 a mutation field; 1 an object, times `first` in a connection (a small cost model). */
  function requestedCost(document: DocumentNode): number {
    let cost = 0;
    for (const definition of document.definitions) {
      if (definition.kind !== 'OperationDefinition') continue;
      if (definition.operation === 'mutation') cost += 10 * definition.selectionSet.selections.length;
      else cost += selectionCost(definition.selectionSet);
    }
    return Math.max(1, cost);
  }
  function selectionCost(set: SelectionSetNode | undefined, multiplier = 1): number {
    if (!set) return 0;
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === 'Field') {
        const first = selection.arguments?.find((argument) => argument.name.value === 'first');
        const count = first && first.value.kind === 'IntValue' ? Number(first.value.value) : 1;
        cost += (selection.selectionSet ? multiplier : 0) + selectionCost(selection.selectionSet, multiplier * (first ? count : 1));
      } else if (selection.kind === 'InlineFragment') cost += selectionCost(selection.selectionSet, multiplier);
    }
    return cost;
  }

  function takeFault(shop: string, fields: string[]): Fault | undefined {
    const fault = faults.find((candidate) => candidate.times > 0 && (!candidate.shop || candidate.shop === shop) && fields.includes(candidate.operation));
    if (!fault) return undefined;
    if (fault.after) {
      fault.after--;
      return undefined;
    }
    fault.times--;
    return fault;
  }

  async function admin(res: ServerResponse, shop: FakeShop, req: IncomingMessage, version: string): Promise<void> {
    if (!API_VERSIONS.includes(version)) return json(res, 404, { errors: 'Not Found' });
    const token = state.tokens[String(req.headers['x-shopify-access-token'] ?? '')];
    if (!token || token.shop !== shop.domain || token.expiresAt < Date.now()) return json(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    const { query, variables } = JSON.parse(await text(req)) as { query: string; variables?: Record<string, unknown> };
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return json(res, 200, { errors: [{ message: (error as Error).message, extensions: { code: 'PARSE_ERROR' } }] });
    }
    const fields = document.definitions.flatMap((definition) => (definition.kind === 'OperationDefinition' ? definition.selectionSet.selections.filter((selection): selection is FieldNode => selection.kind === 'Field').map((field) => field.name.value) : []));
    received.push({ shop: shop.domain, fields, at: nowIso() });

    const bucket = shop.bucket;
    bucket.available = Math.min(bucket.maximumAvailable, bucket.available + ((Date.now() - bucket.at) / 1000) * bucket.restoreRate);
    bucket.at = Date.now();
    const requested = requestedCost(document);
    const throttleStatus = () => ({ maximumAvailable: bucket.maximumAvailable, currentlyAvailable: Math.floor(bucket.available), restoreRate: bucket.restoreRate });
    if (requested > MAX_QUERY_COST) {
      return json(res, 200, { errors: [{ message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`, extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: MAX_QUERY_COST } }] });
    }
    const fault = takeFault(shop.domain, fields);
    if (fault?.kind === 'server-error') return json(res, 500, { errors: 'Internal Server Error' });
    if (fault?.kind === 'throttle' || bucket.available < requested) {
      if (fault?.kind === 'throttle') bucket.available = 0;
      return json(res, 200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus() } },
      });
    }
    bucket.available -= requested;
    if (fault?.kind === 'refuse') {
      const field = fields[0]!;
      return json(res, 200, {
        data: { [field]: { files: null, userErrors: [{ field: ['files', '0', 'id'], message: 'File has a pending operation.', code: 'FILE_LOCKED' }] } },
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: requested, throttleStatus: throttleStatus() } },
      });
    }
    const context: Context = { shop, scopes: token.scopes };
    const result = await graphql({ schema, source: query, rootValue: root, contextValue: context, variableValues: variables });
    if (fault?.kind === 'lose-answer') return json(res, 502, { errors: 'Bad Gateway' });
    json(res, 200, {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors?.length
        ? { errors: result.errors.map((error) => ({ message: error.message, locations: error.locations, path: error.path, extensions: error.extensions ?? { code: 'INVALID_QUERY' } })) }
        : {}),
      extensions: { cost: { requestedQueryCost: requested, actualQueryCost: requested, throttleStatus: throttleStatus() } },
    });
  }

  // ——— The staged upload target ———

  async function upload(res: ServerResponse, req: IncomingMessage): Promise<void> {
    const body = await bytes(req);
    const form = await new Request('http://upload/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type'] ?? '') }, body }).formData();
    const key = String(form.get('key') ?? '');
    const staged = state.staged[key];
    const file = form.get('file');
    if (!staged || form.get('x-goog-signature') !== staged.signature || typeof file === 'string' || !file) {
      return xml(res, 403, '<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy Condition failed.</Message></Error>');
    }
    const fault = takeFault(staged.shop, ['upload']);
    if (fault?.kind === 'server-error') return xml(res, 503, '<Error><Code>ServiceUnavailable</Code></Error>');
    const content = Buffer.from(await file.arrayBuffer());
    const tooSmall = staged.resource === 'VIDEO' && content.length !== staged.maxBytes;
    if (content.length > staged.maxBytes || tooSmall) {
      return xml(res, 400, '<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size.</Message></Error>');
    }
    const blob = createHash('sha256').update(key).digest('hex');
    writeFileSync(join(options.dataDir, 'blobs', blob), content);
    staged.blob = blob;
    staged.bytes = content.length;
    save();
    xml(res, 201, `<PostResponse><Bucket>shopify-staged-uploads</Bucket><Key>${escapeHtml(key)}</Key></PostResponse>`);
  }

  // ——— The CDN: files and the products' thumbnails ———

  function cdn(res: ServerResponse, path: string): void {
    const [, shopId, kind, name] = /^\/s\/files\/1\/(\d+)\/(files|products)\/(.+)$/.exec(path) ?? [];
    const shop = Object.values(state.shops).find((candidate) => String(candidate.id) === shopId);
    if (shop && kind === 'products') {
      const product = shop.products.find((candidate) => `${candidate.handle}.svg` === decodeURIComponent(name ?? ''));
      if (product) {
        return void res
          .writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' })
          .end(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="700" viewBox="0 0 600 700"><rect width="600" height="700" fill="#ffffff"/>${product.shapes}</svg>`);
      }
    }
    const file = shop?.files.find((candidate) => candidate.filename === decodeURIComponent(name ?? '') && candidate.blob);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.mimeType }).end(readFileSync(join(options.dataDir, 'blobs', file.blob)));
  }

  // ——— The tests' controls (/_fake/…) ———

  async function control(res: ServerResponse, req: IncomingMessage, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (method === 'POST' && parts[0] === 'shops' && parts.length === 1) {
      const body = JSON.parse(await text(req)) as { shop: string; name?: string; products?: FakeProductSeed[]; grantable?: string[] };
      addShop(body.shop, body);
      return json(res, 201, shopSummary(state.shops[body.shop]!));
    }
    const shop = parts[0] === 'shops' ? state.shops[parts[1] ?? ''] : undefined;
    if (parts[0] === 'shops' && !shop) return json(res, 404, { error: 'no such shop' });
    if (shop && method === 'GET' && parts.length === 2) return json(res, 200, shopSummary(shop));
    if (shop && method === 'POST' && parts[2] === 'uninstall') {
      uninstall(shop);
      return json(res, 200, { uninstalled: true });
    }
    if (shop && method === 'POST' && parts[2] === 'webhooks') {
      const body = JSON.parse(await text(req)) as { topic: string; payload: unknown; tamper?: boolean };
      return json(res, 200, { status: await sendWebhook(body.topic, shop.domain, body.payload, { tamper: body.tamper }) });
    }
    if (shop && method === 'POST' && parts[2] === 'bucket') {
      const body = JSON.parse(await text(req)) as { maximumAvailable: number; restoreRate: number };
      shop.bucket = { ...body, available: body.maximumAvailable, at: Date.now() };
      save();
      return json(res, 200, shop.bucket);
    }
    if (method === 'POST' && parts[0] === 'faults') {
      const fault = JSON.parse(await text(req)) as Fault;
      faults.push(fault);
      return json(res, 201, fault);
    }
    if (method === 'GET' && parts[0] === 'operations') {
      const shopName = new URL(req.url ?? '/', 'http://fake').searchParams.get('shop');
      return json(res, 200, { items: received.filter((operation) => !shopName || operation.shop === shopName) });
    }
    json(res, 404, { error: 'unknown control' });
  }

  function shopSummary(shop: FakeShop) {
    return {
      shop: shop.domain,
      name: shop.name,
      installed: shop.installed,
      tokens: Object.values(state.tokens).filter((token) => token.shop === shop.domain).length,
      products: shop.products.map((product) => ({
        id: productGid(product),
        title: product.title,
        sku: product.skus[0],
        media: product.media.map((gid) => {
          const file = findFile(shop, gid)!;
          return { id: file.gid, filename: file.filename, alt: file.alt, mediaContentType: file.kind, status: fileStatus(file) };
        }),
      })),
      files: shop.files.map((file) => ({ id: file.gid, filename: file.filename, mediaContentType: file.kind, status: fileStatus(file), errors: file.errors })),
    };
  }

  // ——— Routing ———

  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      log(`fake shopify error: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) json(res, 500, { errors: 'Internal Server Error' });
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, host = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    if (host === '_fake') return control(res, req, path);
    if (host === STORAGE_HOST && req.method === 'POST' && path === '/') return upload(res, req);
    if (host === CDN_HOST && req.method === 'GET') return cdn(res, path);
    const shop = state.shops[host];
    if (!shop) return html(res, 404, '<h1>There’s no page at this address</h1>');
    if (req.method === 'GET' && path === '/admin/oauth/authorize') return authorize(res, shop, url.searchParams);
    if (req.method === 'POST' && path === '/admin/oauth/authorize/install') return install(res, shop, new URLSearchParams(await text(req)));
    if (req.method === 'POST' && path === '/admin/oauth/access_token') return accessToken(res, shop, JSON.parse(await text(req)) as Record<string, string>);
    const graphqlPath = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path);
    if (req.method === 'POST' && graphqlPath) return admin(res, shop, req, graphqlPath[1]!);
    if (req.method === 'GET' && path.startsWith('/admin')) {
      // The shop admin a seller's link opens: here, the product's media in order.
      const productId = /^\/admin\/products\/(\d+)$/.exec(path)?.[1];
      const product = productId && shop.products.find((candidate) => String(candidate.id) === productId);
      if (!product) return html(res, 200, `<h1>${escapeHtml(shop.name)} admin</h1>`);
      const media = product.media.map((gid) => findFile(shop, gid)!).map((file) => `<li>${escapeHtml(file.filename)} (${file.kind})</li>`).join('');
      return html(res, 200, `<h1>${escapeHtml(product.title)}</h1><ol aria-label="Media">${media}</ol>`);
    }
    html(res, 404, '<h1>There’s no page at this address</h1>');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  log(`fake Shopify at ${origin}`);
  return {
    origin,
    app,
    demoShop: DEMO_SHOP,
    addShop,
    sendWebhook,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Connects a shop as a seller's browser does against the stand-in: POST /shops/connect (its state cookie), the
 * install screen, "Install", then Shopify's redirect to the callback with the cookie. `alterCallback` changes the
 * callback's URL first (a forged query); `dropCookie` goes back without the cookie (another browser). Answers where the
 * callback sent the browser (Settings with ?shopify=<outcome>).
 */
export async function installAsMerchant(options: { apiUrl: string; idToken: string; shop: string; alterCallback?: (url: URL) => void; dropCookie?: boolean }): Promise<{ landedOn: URL; callbackUrl: URL }> {
  const expectStatus = async (response: Response, status: number, what: string) => {
    if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  };
  const start = await fetch(`${options.apiUrl}/shops/connect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.idToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ shop: options.shop }),
  });
  await expectStatus(start.clone(), 200, 'POST /shops/connect');
  const cookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
  const { authorizeUrl } = (await start.json()) as { authorizeUrl: string };
  const screen = await fetch(authorizeUrl);
  await expectStatus(screen.clone(), 200, 'the install screen');
  const page = await screen.text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (!action) throw new Error('the install screen has no Install form');
  const fields = new URLSearchParams([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [name!, value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))]));
  const approved = await fetch(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString(), redirect: 'manual' });
  await expectStatus(approved.clone(), 302, 'Install');
  const callbackUrl = new URL(approved.headers.get('location')!);
  options.alterCallback?.(callbackUrl);
  const back = await fetch(callbackUrl, { headers: options.dropCookie ? {} : { cookie: cookies }, redirect: 'manual' });
  await expectStatus(back.clone(), 302, 'the callback');
  return { landedOn: new URL(back.headers.get('location')!), callbackUrl };
}

/** Shopify's OAuth HMAC: hex HMAC-SHA256 of the parameters (hmac left out) sorted by name, as a query string. */
export function oauthHmac(params: Record<string, string>, secret: string): string {
  const message = new URLSearchParams(Object.keys(params).sort().map((name): [string, string] => [name, params[name]!])).toString().replace(/\+/g, '%20');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/**
 * The search syntax the fake understands (shopify.dev/docs/api/usage/search-syntax): `field:value` terms (`*` a
 * wildcard, a quoted value with `\`-escapes), AND / OR (AND binds tighter) and parentheses, over title and sku.
 */
export function searchFilter(query: string): (fields: Record<string, string | string[]>) => boolean {
  const tokens = query.match(/\(|\)|\bAND\b|\bOR\b|[a-z_]+:"(?:\\.|[^"\\])*"|[^\s()]+/g) ?? [];
  let position = 0;
  type Test = (fields: Record<string, string | string[]>) => boolean;
  const term = (): Test => {
    const token = tokens[position++] ?? '';
    if (token === '(') {
      const inner = either();
      position++;
      return inner;
    }
    const [, field = '', raw = ''] = /^([a-z_]+):(.*)$/.exec(token) ?? [undefined, 'title', token];
    const quoted = raw.startsWith('"');
    const value = (quoted ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw).toLowerCase();
    const pattern = quoted ? undefined : new RegExp(`^${value.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return (fields) => [fields[field] ?? []].flat().some((candidate) => (pattern ? pattern.test(candidate.toLowerCase()) : candidate.toLowerCase() === value));
  };
  const both = (): Test => {
    let test = term();
    while (tokens[position] === 'AND' || (tokens[position] && tokens[position] !== 'OR' && tokens[position] !== ')')) {
      if (tokens[position] === 'AND') position++;
      const left = test;
      const right = term();
      test = (fields) => left(fields) && right(fields);
    }
    return test;
  };
  const either = (): Test => {
    let test = both();
    while (tokens[position] === 'OR') {
      position++;
      const left = test;
      const right = both();
      test = (fields) => left(fields) || right(fields);
    }
    return test;
  };
  return either();
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const extensionOf = (name: string) => name.split('.').pop()?.toLowerCase();

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8"><title>Shopify</title>${body}`);
}
function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' }).end(body);
}
async function bytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const text = async (req: IncomingMessage) => (await bytes(req)).toString('utf8');

/** The subset of the GraphQL Admin API 2026-10 schema the app uses (types and fields as its reference names them). */
const SCHEMA = `
scalar URL
scalar DateTime
scalar UnsignedInt64

interface Node { id: ID! }

type Query {
  shop: Shop!
  products(first: Int, after: String, query: String, sortKey: ProductSortKeys, reverse: Boolean): ProductConnection!
  nodes(ids: [ID!]!): [Node]!
  node(id: ID!): Node
  files(first: Int, after: String, query: String): FileConnection!
}

type Shop { name: String! myshopifyDomain: String! }

enum ProductSortKeys { CREATED_AT ID INVENTORY_TOTAL PRODUCT_TYPE PUBLISHED_AT RELEVANCE TITLE UPDATED_AT VENDOR }
enum ProductStatus { ACTIVE ARCHIVED DRAFT UNLISTED }

type Product implements Node {
  id: ID!
  title: String!
  handle: String!
  status: ProductStatus!
  updatedAt: DateTime!
  featuredMedia: Media
  media(first: Int): MediaConnection!
  variants(first: Int): ProductVariantConnection!
}
type ProductConnection { nodes: [Product!]! }
type ProductVariant implements Node { id: ID! sku: String }
type ProductVariantConnection { nodes: [ProductVariant!]! }

enum MediaContentType { EXTERNAL_VIDEO IMAGE MODEL_3D VIDEO }
enum MediaStatus { FAILED PROCESSING READY UPLOADED }
enum FileStatus { FAILED PROCESSING READY UPLOADED }
enum MediaPreviewImageStatus { FAILED PROCESSING READY UPLOADED }
enum FileErrorCode {
  DUPLICATE_FILENAME_ERROR FILE_STORAGE_LIMIT_EXCEEDED GENERIC_FILE_DOWNLOAD_FAILURE GENERIC_FILE_INVALID_SIZE IMAGE_DOWNLOAD_FAILURE
  IMAGE_PROCESSING_FAILURE INVALID_IMAGE_ASPECT_RATIO INVALID_IMAGE_FILE_SIZE INVALID_IMAGE_RESOLUTION INVALID_SIGNED_URL MEDIA_TIMEOUT_ERROR
  UNKNOWN UNSUPPORTED_IMAGE_FILE_TYPE VIDEO_INVALID_FILETYPE_ERROR VIDEO_MAX_DURATION_ERROR VIDEO_MAX_HEIGHT_ERROR VIDEO_MAX_WIDTH_ERROR
  VIDEO_METADATA_READ_ERROR VIDEO_MIN_DURATION_ERROR VIDEO_MIN_HEIGHT_ERROR VIDEO_MIN_WIDTH_ERROR VIDEO_VALIDATION_ERROR
}
type FileError { code: FileErrorCode! details: String message: String }
type Image { url: URL! width: Int height: Int altText: String }
type MediaPreviewImage { image: Image status: MediaPreviewImageStatus! }

interface Media { id: ID! alt: String mediaContentType: MediaContentType! preview: MediaPreviewImage status: MediaStatus! mediaErrors: [FileError!]! }
interface File { id: ID! alt: String createdAt: DateTime! fileStatus: FileStatus! fileErrors: [FileError!]! preview: MediaPreviewImage }

type MediaImage implements Node & Media & File {
  id: ID! alt: String createdAt: DateTime! fileStatus: FileStatus! fileErrors: [FileError!]! mediaContentType: MediaContentType!
  preview: MediaPreviewImage status: MediaStatus! mediaErrors: [FileError!]! image: Image mimeType: String
}
type Video implements Node & Media & File {
  id: ID! alt: String createdAt: DateTime! fileStatus: FileStatus! fileErrors: [FileError!]! mediaContentType: MediaContentType!
  preview: MediaPreviewImage status: MediaStatus! mediaErrors: [FileError!]! filename: String!
}
type MediaConnection { nodes: [Media!]! }
type FileConnection { nodes: [File!]! }

type Mutation {
  stagedUploadsCreate(input: [StagedUploadInput!]!): StagedUploadsCreatePayload
  fileCreate(files: [FileCreateInput!]!): FileCreatePayload
  fileUpdate(files: [FileUpdateInput!]!): FileUpdatePayload
  productReorderMedia(id: ID!, moves: [MoveInput!]!): ProductReorderMediaPayload
  appUninstall: AppUninstallPayload
}

enum StagedUploadTargetGenerateUploadResource { BULK_MUTATION_VARIABLES COLLECTION_IMAGE FILE IMAGE MODEL_3D PRODUCT_IMAGE RETURN_LABEL SHOP_IMAGE URL_REDIRECT_IMPORT VIDEO }
enum StagedUploadHttpMethodType { POST PUT }
input StagedUploadInput { filename: String! mimeType: String! resource: StagedUploadTargetGenerateUploadResource! httpMethod: StagedUploadHttpMethodType = PUT fileSize: UnsignedInt64 }
type StagedUploadParameter { name: String! value: String! }
type StagedMediaUploadTarget { parameters: [StagedUploadParameter!]! resourceUrl: URL url: URL }
type UserError { field: [String!] message: String! }
type StagedUploadsCreatePayload { stagedTargets: [StagedMediaUploadTarget!] userErrors: [UserError!]! }

enum FileContentType { EXTERNAL_VIDEO FILE IMAGE MODEL_3D VIDEO }
enum FileCreateInputDuplicateResolutionMode { APPEND_UUID RAISE_ERROR REPLACE }
enum FilesErrorCode {
  ALT_VALUE_LIMIT_EXCEEDED BLANK_SEARCH FILE_DOES_NOT_EXIST FILE_LOCKED FILENAME_ALREADY_EXISTS INVALID INVALID_DUPLICATE_MODE_FOR_TYPE
  INVALID_FILENAME INVALID_FILENAME_EXTENSION INVALID_IMAGE_SOURCE_URL INVALID_QUERY MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE MISSING_ARGUMENTS
  NON_READY_STATE REFERENCE_TARGET_DOES_NOT_EXIST TOO_MANY_ARGUMENTS UNSUPPORTED_FILE_REFERENCE
}
input FileCreateInput { alt: String contentType: FileContentType duplicateResolutionMode: FileCreateInputDuplicateResolutionMode = APPEND_UUID filename: String originalSource: String! }
input FileUpdateInput { alt: String filename: String id: ID! originalSource: String previewImageSource: String referencesToAdd: [ID!] referencesToRemove: [ID!] }
type FilesUserError { code: FilesErrorCode field: [String!] message: String! }
type FileCreatePayload { files: [File!] userErrors: [FilesUserError!]! }
type FileUpdatePayload { files: [File!] userErrors: [FilesUserError!]! }

input MoveInput { id: ID! newPosition: UnsignedInt64! }
type Job { id: ID! done: Boolean! }
enum MediaUserErrorCode { BLANK INVALID INVALID_MEDIA_TYPE MEDIA_DOES_NOT_EXIST MEDIA_DOES_NOT_EXIST_ON_PRODUCT PRODUCT_DOES_NOT_EXIST PRODUCT_MEDIA_LIMIT_EXCEEDED }
type MediaUserError { code: MediaUserErrorCode field: [String!] message: String! }
type ProductReorderMediaPayload { job: Job mediaUserErrors: [MediaUserError!]! }

type App implements Node { id: ID! }
type AppUninstallAppUninstallError { code: String field: [String!] message: String! }
type AppUninstallPayload { app: App userErrors: [AppUninstallAppUninstallError!]! }
`;
