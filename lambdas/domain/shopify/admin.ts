// The GraphQL Admin API calls, through the library's client (clients.Graphql) at the pinned version (app.ts), each
// written from its reference at shopify.dev/docs/api/admin-graphql/2026-10 (read 2026-11-27) and quoted beside it.
//
// Answers: data, or an error of one of three kinds the callers act on:
//   ShopifyThrottled   the cost-based rate limit ("GraphQL Admin API rate limits",
//                      shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits): HTTP 200 with
//                      errors[0].extensions.code THROTTLED and the bucket in extensions.cost.throttleStatus
//                      { maximumAvailable, currentlyAvailable, restoreRate }; the wait is what the bucket needs to hold
//                      the query's requestedQueryCost again. A 429 (the library's HttpThrottlingError) waits Retry-After.
//   ShopifyRefused     Shopify said no: a top-level error (ACCESS_DENIED for a missing scope, an unknown id…) or a
//                      mutation's userErrors. Its message is Shopify's own words, cut to a length a screen shows.
//   ShopifyUnavailable no answer, or a 5xx.
import { GraphqlQueryError, HttpInternalError, HttpMaxRetriesError, HttpRequestError, HttpResponseError, HttpThrottlingError, type Session } from '@shopify/shopify-api';
import { log } from '../../core/log.js';
import { shopifyApp } from './app.js';

export class ShopifyThrottled extends Error {
  constructor(readonly waitSeconds: number) {
    super(`Shopify throttled the request; retry in ${waitSeconds} s`);
    this.name = 'ShopifyThrottled';
  }
}

export class ShopifyRefused extends Error {
  constructor(
    /** Shopify's words, safe to show. */
    readonly userMessage: string,
    readonly code?: string,
  ) {
    super(userMessage);
    this.name = 'ShopifyRefused';
  }
}

export class ShopifyUnavailable extends Error {
  constructor(readonly status?: number) {
    super(`Shopify did not answer${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'ShopifyUnavailable';
  }
}

/** The most of Shopify's message a screen shows. */
const MESSAGE_MAX = 300;
export const shopifyWords = (message: string) => (message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message);

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}
interface Cost {
  requestedQueryCost?: number;
  throttleStatus?: ThrottleStatus;
}
interface GraphQLErrorShape {
  message?: string;
  extensions?: { code?: string };
}

/** Seconds until the bucket holds `requested` points again (at least one). */
export function throttleWaitSeconds(cost: Cost | undefined): number {
  const status = cost?.throttleStatus;
  if (!status || !(status.restoreRate > 0)) return 2;
  const missing = (cost.requestedQueryCost ?? status.maximumAvailable / 10) - status.currentlyAvailable;
  return Math.max(1, Math.ceil(missing / status.restoreRate));
}

/** One query or mutation; see the header for what it throws. */
export async function adminRequest<T>(session: Session, operation: string, variables: Record<string, unknown> = {}): Promise<T> {
  const shopify = await shopifyApp();
  const client = new shopify.clients.Graphql({ session });
  try {
    const { data, extensions } = await client.request<T>(operation, { variables });
    const status = (extensions as { cost?: Cost } | undefined)?.cost?.throttleStatus;
    if (status) log.debug('shopify cost', { shop: session.shop, available: status.currentlyAvailable, maximum: status.maximumAvailable });
    return data as T;
  } catch (error) {
    throw classified(error);
  }
}

function classified(error: unknown): Error {
  if (error instanceof GraphqlQueryError) {
    const body = error.body as { errors?: { graphQLErrors?: GraphQLErrorShape[] }; extensions?: { cost?: Cost } } | undefined;
    const first = body?.errors?.graphQLErrors?.[0];
    if (first?.extensions?.code === 'THROTTLED') return new ShopifyThrottled(throttleWaitSeconds(body?.extensions?.cost));
    return new ShopifyRefused(shopifyWords(first?.message ?? error.message), first?.extensions?.code);
  }
  if (error instanceof HttpThrottlingError) return new ShopifyThrottled(Math.max(1, Math.ceil(error.response.retryAfter ?? 2)));
  if (error instanceof HttpMaxRetriesError) return new ShopifyThrottled(2);
  if (error instanceof HttpInternalError) return new ShopifyUnavailable(error.response.code);
  if (error instanceof HttpResponseError) {
    return error.response.code === 401 || error.response.code === 403
      ? new ShopifyRefused('Shopify refused the shop’s token. Please connect the shop again.', 'UNAUTHORIZED')
      : new ShopifyUnavailable(error.response.code);
  }
  if (error instanceof HttpRequestError || (error instanceof TypeError && /fetch/i.test(error.message))) return new ShopifyUnavailable();
  return error instanceof Error ? error : new Error(String(error));
}

interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** A mutation's userErrors, as a refusal in Shopify's words. */
export function refuseOnUserErrors(errors: UserError[] | undefined): void {
  const first = errors?.[0];
  if (first) throw new ShopifyRefused(shopifyWords(first.message), first.code ?? undefined);
}

// ——— The operations ———

/** `shop` (QueryRoot.shop, …/2026-10/queries/shop): the shop's name for the Shops screen. */
export const SHOP_QUERY = `#graphql
query shopName { shop { name myshopifyDomain } }`;

/**
 * `products` (…/2026-10/queries/products): `query` takes the search syntax (shopify.dev/docs/api/usage/search-syntax)
 * with the `title` and `sku` filters; `featuredMedia.preview.image.url` is the product's thumbnail (Product.featuredImage
 * is deprecated for it).
 */
export const PRODUCT_SEARCH = `#graphql
query productSearch($query: String, $first: Int!) {
  products(first: $first, query: $query, sortKey: UPDATED_AT, reverse: true) {
    nodes { id title handle status featuredMedia { preview { image { url } } } variants(first: 5) { nodes { sku } } }
  }
}`;

/** `nodes(ids:)` (…/2026-10/queries/nodes): the products a publication names; an unknown id answers null. */
export const PRODUCTS_BY_ID = `#graphql
query productsById($ids: [ID!]!) {
  nodes(ids: $ids) { ... on Product { id title handle featuredMedia { preview { image { url } } } } }
}`;

/**
 * `files` (…/2026-10/queries/files) filtered by `filename`: the file an earlier attempt created under this file's
 * name (its idempotency key in the shop), so a retry never uploads it twice.
 */
export const FILE_BY_NAME = `#graphql
query fileByName($query: String!) {
  files(first: 1, query: $query) { nodes { id fileStatus } }
}`;

/**
 * `stagedUploadsCreate` (…/2026-10/mutations/stagedUploadsCreate): input [StagedUploadInput!]! { filename, mimeType,
 * resource (IMAGE | VIDEO), httpMethod POST, fileSize (required for VIDEO) }; answers stagedTargets { url, resourceUrl,
 * parameters { name value } }: POST a multipart form of the parameters, then the file, to `url`; `resourceUrl` is
 * the file's `originalSource` in fileCreate.
 */
export const STAGED_UPLOADS_CREATE = `#graphql
mutation stagedUploadsCreate($input: [StagedUploadInput!]!) {
  stagedUploadsCreate(input: $input) {
    stagedTargets { url resourceUrl parameters { name value } }
    userErrors { field message }
  }
}`;

/**
 * `fileCreate` (…/2026-10/mutations/fileCreate): files [FileCreateInput!]! { originalSource, contentType (IMAGE | VIDEO),
 * filename, alt }; answers files { id fileStatus } and userErrors [FilesUserError] { field message code }. Files are
 * processed asynchronously: fileStatus UPLOADED → PROCESSING → READY (or FAILED).
 */
export const FILE_CREATE = `#graphql
mutation fileCreate($files: [FileCreateInput!]!) {
  fileCreate(files: $files) {
    files { id fileStatus }
    userErrors { field message code }
  }
}`;

/** `node(id:)` on the File interface: fileStatus and fileErrors { code message details } while Shopify processes it. */
export const FILE_STATUS = `#graphql
query fileStatus($id: ID!) {
  node(id: $id) { ... on File { id fileStatus fileErrors { code message details } } }
}`;

/**
 * `fileUpdate` (…/2026-10/mutations/fileUpdate): files [FileUpdateInput!]! { id, referencesToAdd: [product ids] } adds
 * the file to each product's media ("Files must be in ready state before they can be updated"); userErrors as above.
 * This is how the manage-media guide attaches media today: productCreateMedia is deprecated ("Use productUpdate or
 * productSet instead", …/2025-10/mutations/productCreateMedia), and the files model lets one result be one file of
 * the shop, however many products show it.
 */
export const FILE_UPDATE = `#graphql
mutation fileUpdate($files: [FileUpdateInput!]!) {
  fileUpdate(files: $files) {
    files { id fileStatus }
    userErrors { field message code }
  }
}`;

/**
 * `productReorderMedia` (…/2026-10/mutations/productReorderMedia): id (the product), moves [MoveInput!]! { id, newPosition
 * (UnsignedInt64, zero-based, as a string; "Moves are applied sequentially") }; answers an asynchronous job { id done }
 * and mediaUserErrors { field message code }.
 */
export const PRODUCT_REORDER_MEDIA = `#graphql
mutation productReorderMedia($id: ID!, $moves: [MoveInput!]!) {
  productReorderMedia(id: $id, moves: $moves) {
    job { id done }
    mediaUserErrors { field message code }
  }
}`;

/**
 * `appUninstall` (…/2026-10/mutations/appUninstall): the app removes itself from the shop, which invalidates its
 * tokens ("Uninstalling an app triggers cleanup tasks", shopify.dev/docs/apps/build/authentication-authorization/
 * app-installation/uninstall-app-api-request).
 */
export const APP_UNINSTALL = `#graphql
mutation appUninstall { appUninstall { app { id } userErrors { field message code } } }`;
