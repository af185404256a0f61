// Publishing to Shopify: connecting a shop (OAuth through the official library), finding a product, and publishing
// finished pictures and videos to its media through a workflow. The routes, their bodies and answers, Shopify's media
// limits and the messages people read. Shared by the Lambda handlers and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { MB } from './catalog.js';
import { GenerationId } from './generations.js';
import { defineRoute } from './route.js';

/**
 * The access scopes the app asks for. The current guide to product media ("Manage media for products and collections",
 * shopify.dev/docs/apps/build/product-merchandising/products-and-collections/manage-media, read 2026-11-27) uploads
 * through `fileCreate` and attaches with `fileUpdate(referencesToAdd)`, which need `write_files` beside the product
 * scopes.
 */
export const SHOPIFY_SCOPES = ['read_products', 'write_products', 'write_files'] as const;

/** A shop's permanent domain: `<handle>.myshopify.com` (what OAuth and the Admin API are addressed to). */
export const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export const SHOPIFY_MESSAGES = {
  enterShop: 'Enter your shop’s address, e.g. my-shop.myshopify.com',
  notAShop: 'That is not a Shopify shop address (it ends in .myshopify.com)',
  notSetUp: 'Publishing to Shopify is not set up on this deployment.',
  notConnected: 'This shop is not connected. Connect it in Settings → Shops first.',
  connectedElsewhere: 'This shop is connected to another ModelLoop account. Disconnect it there first.',
  connectFailed: 'Shopify did not confirm the connection. Please try again.',
  scopesMissing: 'The shop granted fewer permissions than publishing needs (products and files). Please connect again and accept all of them.',
  connected: 'Shop connected.',
  disconnected: 'Shop disconnected.',
  uninstalled: 'The ModelLoop app was uninstalled from this shop. Connect it again to publish.',
  choosePicture: 'Choose at least one finished picture or video to publish',
  tooManyFiles: (max: number) => `A publication can have at most ${max} files`,
  notFinished: 'Only finished pictures and videos can be published',
  unsupportedType: 'Shopify takes PNG, JPEG, GIF or WebP pictures and MP4 videos',
  productNotFound: 'This product was not found in the shop. It may have been deleted.',
  chooseProduct: 'Choose a product',
  keyReused: 'This Idempotency-Key was used for another publication.',
  shopifyBusy: 'Shopify is busy. Please try again in a moment.',
  shopifyUnreachable: 'Shopify could not be reached. Please try again.',
  fileFailed: 'Something went wrong on our side while publishing this file.',
  fileTimedOut: 'Shopify took too long to process this file.',
  fileStopped: 'This file was not published: the publication stopped.',
} as const;

/** The stable codes of the refusals. */
export const SHOPIFY_CODES = {
  notSetUp: 'SHOPIFY_NOT_SET_UP',
  notConnected: 'SHOP_NOT_CONNECTED',
  connectedElsewhere: 'SHOP_CONNECTED_ELSEWHERE',
  fileTooLarge: 'FILE_TOO_LARGE',
  unsupportedType: 'UNSUPPORTED_FILE_TYPE',
  notFinished: 'RESULT_NOT_READY',
  productNotFound: 'PRODUCT_NOT_FOUND',
  keyReused: 'IDEMPOTENCY_KEY_REUSED',
  shopifyBusy: 'SHOPIFY_THROTTLED',
  shopifyUnreachable: 'SHOPIFY_UNREACHABLE',
  shopifyRefused: 'SHOPIFY_REFUSED',
} as const;

/**
 * Shopify's media limits, checked before anything is sent ("Supported media types", the manage-media guide above,
 * read 2026-11-27): MediaImage PNG, GIF, JPEG, WEBP, HEIC, at most 20 MB and 4472 × 4472 px (20 MP), aspect ratio
 * 100:1 to 1:100; Video MP4, MOV, WEBM, at most 1 GB, 10 minutes and 3840 × 2160 (UHD/4K). The side is what is
 * checked: 4472² is just under 20 MP, and the marketplace checklist (contracts/marketplace.ts) reads Shopify the same way.
 */
export const SHOPIFY_MEDIA_LIMITS = {
  image: { maxBytes: 20 * MB, maxSide: 4472, maxAspectRatio: 100, types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] },
  video: { maxBytes: 1024 * MB, maxSeconds: 600, maxLongSide: 3840, maxShortSide: 2160, types: ['video/mp4'] },
} as const;

/** What a file breaks of the limits, in the words the seller reads; undefined when Shopify takes it. */
export function mediaLimitProblem(file: { contentType: string; bytes: number; width?: number | null; height?: number | null; seconds?: number | null }): { code: string; message: string } | undefined {
  const { image, video } = SHOPIFY_MEDIA_LIMITS;
  const sizeMb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  const tooLarge = (message: string) => ({ code: SHOPIFY_CODES.fileTooLarge, message });
  if ((image.types as readonly string[]).includes(file.contentType)) {
    if (file.bytes > image.maxBytes) return tooLarge(`Shopify takes pictures up to 20 MB; this one is ${sizeMb(file.bytes)}`);
    const { width, height } = file;
    if (width && height) {
      if (Math.max(width, height) > image.maxSide) {
        return tooLarge(`Shopify takes pictures up to 20 megapixels (${image.maxSide} × ${image.maxSide}); this one is ${width} × ${height}`);
      }
      if (Math.max(width, height) / Math.min(width, height) > image.maxAspectRatio) return tooLarge('Shopify takes pictures no more than 100 times wider than tall, or taller than wide');
    }
    return undefined;
  }
  if ((video.types as readonly string[]).includes(file.contentType)) {
    if (file.bytes > video.maxBytes) return tooLarge(`Shopify takes videos up to 1 GB; this one is ${sizeMb(file.bytes)}`);
    if (file.seconds && file.seconds > video.maxSeconds) return tooLarge(`Shopify takes videos up to 10 minutes; this one is ${Math.round(file.seconds)} seconds`);
    const { width, height } = file;
    if (width && height && (Math.max(width, height) > video.maxLongSide || Math.min(width, height) > video.maxShortSide)) {
      return tooLarge(`Shopify takes videos up to 3840 × 2160 (4K); this one is ${width} × ${height}`);
    }
    return undefined;
  }
  return { code: SHOPIFY_CODES.unsupportedType, message: SHOPIFY_MESSAGES.unsupportedType };
}

/** `my-shop`, `my-shop.myshopify.com` or `https://my-shop.myshopify.com/admin` → `my-shop.myshopify.com`. */
export const ShopDomain = /* @__PURE__ */ (() => z
  .string({ error: SHOPIFY_MESSAGES.enterShop })
  .trim()
  .toLowerCase()
  .min(1, SHOPIFY_MESSAGES.enterShop)
  .max(255, SHOPIFY_MESSAGES.notAShop)
  .transform((text) => {
    const host = text.replace(/^https?:\/\//, '').split(/[/?#]/)[0]!;
    return host.includes('.') ? host : `${host}.myshopify.com`;
  })
  .refine((domain) => SHOP_DOMAIN_PATTERN.test(domain), SHOPIFY_MESSAGES.notAShop))();

/** A product's global id, as the Admin API names it. */
export const ProductGid = /* @__PURE__ */ (() => z.string({ error: SHOPIFY_MESSAGES.chooseProduct }).regex(/^gid:\/\/shopify\/Product\/\d+$/, SHOPIFY_MESSAGES.chooseProduct))();

export const SHOP_STATUSES = ['connected', 'uninstalled'] as const;

/** A connected shop as the API answers it (never its tokens). */
export const ConnectedShop = /* @__PURE__ */ (() => z.object({
  shop: z.string(),
  /** The shop's name in Shopify. */
  name: z.string(),
  /** 'uninstalled': Shopify told us the app was removed; connect again to publish. */
  status: z.enum(SHOP_STATUSES),
  scopes: z.array(z.string()),
  connected_at: z.string(),
  /** The shop's admin, to open it. */
  admin_url: z.string(),
}))();
export type ConnectedShop = z.infer<typeof ConnectedShop>;

export const ConnectShopRequest = /* @__PURE__ */ (() => z.object({ shop: ShopDomain }))();
export type ConnectShopRequest = z.input<typeof ConnectShopRequest>;
/** Where to send the browser: Shopify's install screen for this shop (the answer also sets the OAuth state cookie). */
export const ConnectShopResponse = /* @__PURE__ */ (() => z.object({ authorizeUrl: z.string() }))();
export type ConnectShopResponse = z.infer<typeof ConnectShopResponse>;

/** What the OAuth callback sends the browser back to Settings with (`?shopify=<outcome>`), and what each means. */
export const CONNECT_OUTCOMES = {
  connected: SHOPIFY_MESSAGES.connected,
  failed: SHOPIFY_MESSAGES.connectFailed,
  'scopes-missing': SHOPIFY_MESSAGES.scopesMissing,
  'connected-elsewhere': SHOPIFY_MESSAGES.connectedElsewhere,
} as const;
export type ConnectOutcome = keyof typeof CONNECT_OUTCOMES;
/** The query parameter of Settings that carries the outcome. */
export const CONNECT_OUTCOME_PARAM = 'shopify';

export const ShopDisconnected = /* @__PURE__ */ (() => z.object({ disconnected: z.literal(true) }))();

export const ProductSearchQuery = /* @__PURE__ */ (() => z.object({ query: z.string().trim().max(100, 'The search can be at most 100 characters').optional() }))();
export type ProductSearchQuery = z.input<typeof ProductSearchQuery>;

/** A product of the shop, as the pickers show it. */
export const ShopProduct = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.string(),
  /** The SKUs of its first variants. */
  skus: z.array(z.string()),
  /** Its featured media's preview, to recognise it by. */
  image_url: z.string().nullable(),
  admin_url: z.string(),
}))();
export type ShopProduct = z.infer<typeof ShopProduct>;
export const ShopProductList = /* @__PURE__ */ (() => z.object({ items: z.array(ShopProduct) }))();

/** A library item's remembered product in one shop (set by every publication of its pictures). */
export const ProductMatch = /* @__PURE__ */ (() => z.object({
  clothing_item_id: z.string(),
  product_id: z.string(),
  product_title: z.string(),
  image_url: z.string().nullable(),
  updated_at: z.string(),
}))();
export type ProductMatch = z.infer<typeof ProductMatch>;
export const ProductMatchList = /* @__PURE__ */ (() => z.object({ items: z.array(ProductMatch) }))();

/** The most files one publication takes: a whole batch (BATCH_MAX_PHOTOS). */
export const PUBLISH_MAX_FILES = 120;
/** 'last' adds after the product's media; 'first' puts the files first, in the order given. */
export const PLACEMENTS = ['last', 'first'] as const;
export type Placement = (typeof PLACEMENTS)[number];

export const PublishRequest = /* @__PURE__ */ (() => z.object({
  shop: ShopDomain,
  files: z
    .array(z.object({ generationId: GenerationId, productId: ProductGid }), { error: SHOPIFY_MESSAGES.choosePicture })
    .min(1, SHOPIFY_MESSAGES.choosePicture)
    .max(PUBLISH_MAX_FILES, SHOPIFY_MESSAGES.tooManyFiles(PUBLISH_MAX_FILES))
    .refine((files) => new Set(files.map((file) => `${file.generationId} ${file.productId}`)).size === files.length, 'Each picture can be published once per product in one publication'),
  placement: z.enum(PLACEMENTS).default('last'),
}))();
export type PublishRequest = z.input<typeof PublishRequest>;

export const PUBLICATION_STATUSES = ['publishing', 'complete', 'partial', 'failed'] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
export const PUBLISHED_FILE_STATUSES = ['pending', 'published', 'failed'] as const;
export type PublishedFileStatus = (typeof PUBLISHED_FILE_STATUSES)[number];

export const PublishedFile = /* @__PURE__ */ (() => z.object({
  generation_id: z.string(),
  product_id: z.string(),
  product_title: z.string(),
  status: z.enum(PUBLISHED_FILE_STATUSES),
  /** Why it failed, in Shopify's own words where they are safe to show. */
  error: z.string().nullable(),
  /** The product's page in the shop admin, once published. */
  admin_url: z.string().nullable(),
  /** The media's id in Shopify, once published. */
  media_id: z.string().nullable(),
}))();
export type PublishedFile = z.infer<typeof PublishedFile>;

export const Publication = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  shop: z.string(),
  status: z.enum(PUBLICATION_STATUSES),
  placement: z.enum(PLACEMENTS),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  files: z.array(PublishedFile),
  published: z.number().int(),
  failed: z.number().int(),
}))();
export type Publication = z.infer<typeof Publication>;
export const PublicationList = /* @__PURE__ */ (() => z.object({ items: z.array(Publication) }))();
/** The newest publications GET /publications lists. */
export const PUBLICATION_LIST_SIZE = 20;

// ——— Routes (lambdas/contracts/route.ts) ———

export const listShopsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/shops',
  auth: 'user',
  publicApi: true,
  summary: 'Your connected Shopify shops',
  response: z.object({ items: z.array(ConnectedShop) }),
}))();

export const connectShopRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/shops/connect',
  auth: 'user',
  summary: "Start connecting a Shopify shop: Shopify's install screen to send the browser to",
  body: ConnectShopRequest,
  response: ConnectShopResponse,
  errors: { 409: SHOPIFY_MESSAGES.connectedElsewhere },
  sample: { body: { shop: 'modelloop-demo.myshopify.com' } },
}))();

/** Shopify sends the merchant's browser here after the install screen (OAuth's redirect URL; checked by HMAC and state). */
export const shopifyCallbackRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/shops/callback', auth: 'public', summary: "Shopify's OAuth redirect" }))();

export const disconnectShopRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'DELETE',
  path: '/shops/{shop}',
  auth: 'user',
  summary: 'Disconnect a shop: the app is uninstalled from it and its token deleted',
  response: ShopDisconnected,
  sample: { params: { shop: 'modelloop-demo.myshopify.com' } },
}))();

export const searchShopProductsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/shops/{shop}/products',
  auth: 'user',
  publicApi: true,
  summary: "Find a shop's products by title or SKU",
  query: ProductSearchQuery,
  response: ShopProductList,
  errors: { 409: SHOPIFY_MESSAGES.notConnected },
  sample: { params: { shop: 'modelloop-demo.myshopify.com' }, query: { query: 'tee' } },
}))();

export const listProductMatchesRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/shops/{shop}/matches',
  auth: 'user',
  summary: 'The product each library item was last published to in this shop',
  response: ProductMatchList,
  sample: { params: { shop: 'modelloop-demo.myshopify.com' } },
}))();

export const publishToShopRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/publications',
  auth: 'user',
  publicApi: true,
  summary:
    "Publish finished pictures and videos to products' media (free; runs in the background, follow it with GET /publications/{id} or the publish.completed webhook). " +
    'Send an Idempotency-Key to make a retried request the same publication; a file already on its product is not added again.',
  body: PublishRequest,
  response: Publication,
  status: 202,
  errors: { 409: SHOPIFY_MESSAGES.keyReused, 413: 'A file is over Shopify’s media limits (FILE_TOO_LARGE).' },
  sample: { body: { shop: 'modelloop-demo.myshopify.com', files: [{ generationId: 'sample-generation', productId: 'gid://shopify/Product/1001' }] } },
}))();

export const listPublicationsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/publications',
  auth: 'user',
  publicApi: true,
  summary: 'Your latest publications, newest first',
  response: PublicationList,
}))();

export const getPublicationRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/publications/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'One publication and where each file went',
  response: Publication,
  sample: { params: { id: 'pub_sample' } },
}))();

/** Shopify's webhooks: app/uninstalled and the mandatory compliance topics, checked by X-Shopify-Hmac-Sha256. */
export const shopifyWebhookRoute = /* @__PURE__ */ (() => defineRoute({ method: 'POST', path: '/webhooks/shopify', auth: 'public', summary: "Shopify's signed webhooks" }))();
