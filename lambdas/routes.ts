// The one route table of the HTTP API. CDK builds API Gateway routes and one Lambda per entry from it;
// the local gateway serves the same entries by calling the same handler modules in-process.
import type { BucketName, TableName } from './data/tables.js';
import { exportAccountDataRoute, getAccountExportRoute, requestAccountDeletionRoute } from './contracts/account.js';
import { getCreditSummaryRoute, getFirstStepsRoute, getGenerationDurationsRoute, getProfileRoute, listCreditTransactionsRoute, listPricingTiersRoute } from './contracts/api.js';
import {
  createClothingUploadUrlRoute,
  deleteClothingItemRoute,
  getClothingItemRoute,
  listClothingItemsRoute,
  makeClothingThumbnailsRoute,
  registerClothingItemRoute,
  updateClothingItemRoute,
} from './contracts/clothing.js';
import { createCheckoutSessionRoute, listPurchasesRoute, purchaseCreditsRoute, requestRefundRoute, stripeWebhookRoute } from './contracts/payments.js';
import { createApiKeyRoute, getOpenApiRoute, listApiKeysRoute, revokeApiKeyRoute } from './contracts/api-keys.js';
import { downloadBatchRoute, generateBatchRoute, getBatchRoute, listBatchesRoute } from './contracts/batch.js';
import { generatePackshotRoute, getPackshotCutoutRoute, refinePackshotCutoutRoute } from './contracts/packshots.js';
import { createGenerationUploadUrlRoute, editAiImageRoute, generateAiImageRoute, getEditInstructionsRoute, getGenerationRoute, listGenerationsRoute, upscaleAiImageRoute } from './contracts/generations.js';
import { createImportRoute, selectImportImageRoute } from './contracts/imports.js';
import { createModelRoute, createModelUploadUrlRoute, deleteModelRoute, listModelsRoute, updateModelRoute } from './contracts/models.js';
import { createContactRequestRoute } from './contracts/contact.js';
import { createSupportTicketRoute, listSupportTicketsRoute } from './contracts/support.js';
import { cancelJobRoute, generateVideoRoute, getVideoUrlRoute, listJobsRoute, pollOperationRoute, readVideoMotionRoute } from './contracts/video.js';
import { createWebhookRoute, deleteWebhookRoute, listWebhookDeliveriesRoute, listWebhooksRoute, sendWebhookTestRoute } from './contracts/webhooks.js';
import {
  connectShopRoute,
  disconnectShopRoute,
  getPublicationRoute,
  listProductMatchesRoute,
  listPublicationsRoute,
  listShopsRoute,
  publishToShopRoute,
  searchShopProductsRoute,
  shopifyCallbackRoute,
  shopifyWebhookRoute,
} from './contracts/shopify.js';
import type { SecretName } from './core/secrets.js';

import type { RouteContract } from './contracts/route.js';

export type { HttpMethod } from './contracts/route.js';
export type Access = 'read' | 'write';
/** 'put': only s3:PutObject (and the tag uploads are created with), for functions that sign uploads and never read a file. */
export type BucketAccess = Access | 'put';

/** What only the infrastructure needs to know of a route's function. */
export interface RouteInfrastructure {
  /** What the function touches; CDK grants exactly this and passes the names in the same call. */
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, BucketAccess>>;
  /** Workflows the function starts, stops or describes (lambdas/workflows.ts). */
  workflows?: readonly string[];
  /** Longer work than the default 10 s (still always below API Gateway's 29 s). */
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Counts the faces of an uploaded portrait: the function carries the face detector (lib/native-modules.ts). */
  faces?: boolean;
  /** Finds users of the Cognito user pool by sub: a profile made by an API key's first call reads its e-mail there. */
  userPool?: 'read-users';
  /** Secrets it reads (lambdas/core/secrets.ts): in the cloud their ARNs and a grant to read exactly those. */
  secrets?: readonly SecretName[];
}

/** What a function may do in the Cognito user pool: find users, or find and delete them. */
export type UserPoolAccess = 'read-users' | 'delete-users';
/** The IAM actions of each (and the twin's grant check): ListUsers finds a user by sub (a federated user's name is not its sub); AdminDeleteUser deletes by name. */
export const USER_POOL_ACTIONS: Record<UserPoolAccess, string[]> = {
  'read-users': ['cognito-idp:ListUsers'],
  'delete-users': ['cognito-idp:AdminDeleteUser', 'cognito-idp:ListUsers'],
};

/**
 * One entry of the table: the route's contract (lambdas/contracts/<feature>.ts), the handler module that serves it and
 * the infrastructure. Method, path, auth and publicApi are the contract's, repeated here for the readers of the table.
 */
export interface RouteDefinition extends RouteInfrastructure, Pick<RouteContract, 'method' | 'path' | 'auth' | 'publicApi'> {
  /** Module lambdas/handlers/<handler>.ts, exporting `handler` (built from the same contract). */
  handler: string;
  contract: RouteContract;
}

function route<const H extends string>(contract: RouteContract, handler: H, infrastructure: RouteInfrastructure = {}) {
  const { method, path, auth, publicApi } = contract;
  return { method, path, auth, ...(publicApi ? { publicApi } : {}), handler, contract, ...infrastructure } satisfies RouteDefinition;
}

/**
 * Bundled ahead of the handler of every user route, on both hosts (the cloud's esbuild `inject`, the twin's handler
 * loader): installs the caller gate into the http wrapper, which refuses every call of a user route without it. So the
 * gate (a deleted account, a revoked key, the key's rate) follows from `auth: 'user'`, and no handler imports it.
 */
export const USER_ROUTE_PRELUDE = 'lambdas/domain/caller-gate.ts';

/** What moving a balance needs: the profile and the ledger (a debit, a refund, the sign-up grant of a first call). */
export const LEDGER_WRITE = { profiles: 'write', ledger: 'write' } as const satisfies Partial<Record<TableName, Access>>;
/**
 * A route whose call may make (or repair) the caller's profile: with an API key it reads the user's e-mail and
 * creation time from the user pool (domain/credits.ts ensureProfile).
 */
export const PROFILE_MAKER = { userPool: 'read-users' } as const satisfies RouteInfrastructure;
/** A function that talks to Shopify as the app (OAuth, webhooks): the app's credentials. */
export const SHOPIFY_APP = ['shopifyApp'] as const satisfies readonly SecretName[];
/** A function that calls a shop's Admin API: the app's credentials and the key the shop's token is sealed with. */
export const SHOPIFY_TOKENS = ['shopifyApp', 'shopTokenKey'] as const satisfies readonly SecretName[];

/** A route that spends also counts its caller's requests against the per-user limits. */
export const SPENDING = { ...LEDGER_WRITE, limits: 'write' } as const satisfies Partial<Record<TableName, Access>>;

export const ROUTES = /* @__PURE__ */ (() => ([
  // The first authenticated call of a new user creates the profile with the sign-up credits.
  route(getProfileRoute, 'get-profile', { tables: LEDGER_WRITE, ...PROFILE_MAKER }),
  route(listCreditTransactionsRoute, 'list-credit-transactions', { tables: { ledger: 'read' } }),
  // The dashboard's four first steps, from the library and the history (read only).
  route(getFirstStepsRoute, 'get-first-steps', { tables: { clothingItems: 'read', generations: 'read' } }),
  route(listPricingTiersRoute, 'list-pricing-tiers', { tables: { pricingTiers: 'read' } }),
  // The labelled test payment counts its grants per user and day in the payments table.
  route(purchaseCreditsRoute, 'purchase-credits', { tables: { ...LEDGER_WRITE, payments: 'write' }, ...PROFILE_MAKER }),
  route(createClothingUploadUrlRoute, 'create-clothing-upload-url', { buckets: { clothingImages: 'put' } }),
  route(registerClothingItemRoute, 'register-clothing-item', {
    tables: { clothingItems: 'write' },
    // Reads the upload, decodes it fully with sharp, deletes what fails.
    buckets: { clothingImages: 'write' },
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  route(makeClothingThumbnailsRoute, 'make-clothing-thumbnails', {
    tables: { clothingItems: 'write' },
    // Reads originals, decodes them with sharp (at most MAKE_THUMBNAILS_PER_CALL) and writes their thumbnails.
    buckets: { clothingImages: 'write' },
    timeoutSeconds: 25,
    memoryMb: 1024,
  }),
  route(listClothingItemsRoute, 'list-clothing-items', {
    tables: { clothingItems: 'read' },
    buckets: { clothingImages: 'read' },
  }),
  route(getClothingItemRoute, 'get-clothing-item', { tables: { clothingItems: 'read' }, buckets: { clothingImages: 'read' } }),
  route(updateClothingItemRoute, 'update-clothing-item', {
    tables: { clothingItems: 'write' },
    buckets: { clothingImages: 'read' },
  }),
  route(deleteClothingItemRoute, 'delete-clothing-item', {
    tables: { clothingItems: 'write' },
    buckets: { clothingImages: 'read' },
  }),
  // ——— Saved models: personas used by image generation and batch (lambdas/domain/models/) ———
  route(createModelUploadUrlRoute, 'create-model-upload-url', { buckets: { clothingImages: 'put' } }),
  route(createModelRoute, 'create-model', {
    // An uploaded portrait is read and decoded fully, and its faces counted (it is deleted when it fails); a picked
    // result is only looked up.
    tables: { models: 'write', generations: 'read' },
    buckets: { clothingImages: 'write', results: 'read' },
    timeoutSeconds: 20,
    memoryMb: 1024,
    faces: true,
  }),
  route(listModelsRoute, 'list-models', { tables: { models: 'read' }, buckets: { clothingImages: 'read', results: 'read' } }),
  route(updateModelRoute, 'update-model', {
    // A new uploaded portrait is read, decoded and its faces counted (as on create); the one it replaces is deleted
    // unless another model names it.
    tables: { models: 'write', generations: 'read' },
    buckets: { clothingImages: 'write', results: 'read' },
    timeoutSeconds: 20,
    memoryMb: 1024,
    faces: true,
  }),
  route(deleteModelRoute, 'delete-model', {
    // Deletes the model (its place under the cap is freed in the same transaction) and its uploaded portrait, unless
    // another model names that file.
    tables: { models: 'write' },
    buckets: { clothingImages: 'write' },
  }),
  // ——— Image generation, edit, upscale and the generations history (lambdas/domain/generation/) ———
  route(generateAiImageRoute, 'generate-ai-image', {
    ...PROFILE_MAKER,
    // Checks the product image (an inline one is decoded and stored), charges, records, starts the workflow.
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read', models: 'read' },
    // clothingImages: a saved model's uploaded portrait is looked up (HEAD) before the charge.
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  route(editAiImageRoute, 'edit-ai-image', {
    ...PROFILE_MAKER,
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read' },
    // An uploaded image is checked (and deleted when it is not one) before it is used; a library item's picture is
    // read for its size (the result-size rules are checked before the charge).
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  route(upscaleAiImageRoute, 'upscale-ai-image', {
    ...PROFILE_MAKER,
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read' },
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  route(generatePackshotRoute, 'generate-packshot', {
    ...PROFILE_MAKER,
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read' },
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  // "Refine cutout": the packshot's photo and mask, and its render again from a refined mask (no credit moves).
  route(getPackshotCutoutRoute, 'get-packshot-cutout', { tables: { generations: 'read' }, buckets: { results: 'read', clothingImages: 'read' } }),
  route(refinePackshotCutoutRoute, 'refine-packshot-cutout', {
    tables: { generations: 'write' },
    buckets: { results: 'write', clothingImages: 'read' },
    // Decodes the photo (up to 1600 px kept) and renders the preset's frame (up to 3000 px) with sharp.
    timeoutSeconds: 25,
    memoryMb: 2048,
  }),
  route(createGenerationUploadUrlRoute, 'create-generation-upload-url', { buckets: { results: 'put' } }),
  route(listGenerationsRoute, 'list-generations', { tables: { generations: 'read' }, buckets: { results: 'read' } }),
  route(getGenerationRoute, 'get-generation', { tables: { generations: 'read' }, buckets: { results: 'read' } }),
  route(getEditInstructionsRoute, 'get-edit-instructions'),
  // ——— Video (generate-video, poll-operation, get-video-url, cancel, the jobs list) ———
  route(generateVideoRoute, 'generate-video', {
    ...PROFILE_MAKER,
    // The source may be one of the caller's results or library items (read, then copied beside the job).
    tables: { ...SPENDING, jobs: 'write', pricingTiers: 'read', generations: 'write', clothingItems: 'read' },
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['video'],
    // Decodes the whole source image (up to 6 MB) to check it.
    timeoutSeconds: 20,
    memoryMb: 1024,
  }),
  route(readVideoMotionRoute, 'read-video-motion'),
  route(pollOperationRoute, 'poll-operation', {
    // Only reads: settling is workflow-ended's and the reconciler's.
    tables: { jobs: 'read' },
  }),
  route(getVideoUrlRoute, 'get-video-url', { tables: { jobs: 'read' }, buckets: { results: 'read' } }),
  route(cancelJobRoute, 'cancel-job', {
    tables: { ...LEDGER_WRITE, jobs: 'write', generations: 'write', limits: 'write' },
    workflows: ['video'],
  }),
  route(listJobsRoute, 'list-jobs', { tables: { jobs: 'read' }, buckets: { results: 'read' } }),
  // ——— Payments: Stripe Checkout, its webhook, refunds of unused credits, receipts (lambdas/domain/payments/) ———
  route(createCheckoutSessionRoute, 'create-checkout-session', {
    // Stripe's API answers within its own timeout (6 s) and one retry.
    timeoutSeconds: 15,
  }),
  route(stripeWebhookRoute, 'stripe-webhook', {
    // Authenticated by the Stripe-Signature over the raw body; grants through the ledger, records what it can't honour.
    tables: { ...LEDGER_WRITE, payments: 'write' },
    timeoutSeconds: 15,
  }),
  route(requestRefundRoute, 'request-refund', {
    // Takes the refunded credits back out of the balance (refund_of_purchase).
    tables: { ...LEDGER_WRITE, payments: 'write' },
    timeoutSeconds: 15,
  }),
  route(listPurchasesRoute, 'list-purchases', { tables: { ledger: 'read' } }),
  // ——— Importing a product photo from a link (lambdas/domain/imports/) ———
  route(createImportRoute, 'create-import', {
    // Fetches a page and its images through the SSRF guard (10 s in all), keeps only the list of candidates.
    tables: { imports: 'write', limits: 'write' },
    timeoutSeconds: 15,
    memoryMb: 1024,
  }),
  route(selectImportImageRoute, 'select-import-image', {
    // Downloads one candidate, checks it like an upload (full decode) and stores it in the caller's folder.
    tables: { imports: 'read', limits: 'write' },
    buckets: { clothingImages: 'write', results: 'write' },
    timeoutSeconds: 20,
  }),
  // ——— Batch generation (generate-batch; lambdas/domain/batch/) ———
  route(generateBatchRoute, 'generate-batch', {
    ...PROFILE_MAKER,
    // Checks every entry, charges the batch in one debit, records it and its photo rows, starts the batch workflow.
    tables: { ...SPENDING, batches: 'write', generations: 'write', clothingItems: 'read', pricingTiers: 'read', models: 'read' },
    // A saved model's portrait (an upload or a result) is looked up (HEAD) before the charge.
    buckets: { clothingImages: 'read', results: 'read' },
    workflows: ['batch'],
    timeoutSeconds: 20,
  }),
  route(listBatchesRoute, 'list-batches', {
    tables: { batches: 'read', generations: 'read' },
    // The batch's saved model portrait may be an upload (clothing-images) or a result.
    buckets: { results: 'read', clothingImages: 'read' },
  }),
  route(getBatchRoute, 'get-batch', {
    tables: { batches: 'read', generations: 'read' },
    buckets: { results: 'read', clothingImages: 'read' },
  }),
  route(downloadBatchRoute, 'download-batch', {
    // Starts the zip job (the batchArchive workflow) or answers the zip's signed URL once it is built.
    tables: { batches: 'write' },
    buckets: { results: 'read' },
    workflows: ['batchArchive'],
  }),
  // Totals over the whole ledger, read page by page: Usage's bought, spent and refunded figures.
  route(getCreditSummaryRoute, 'get-credit-summary', { tables: { ledger: 'read' } }),
  // The median time of the caller's recent images and videos: the screens' "usually ready in about …".
  route(getGenerationDurationsRoute, 'get-generation-durations', { tables: { generations: 'read' } }),
  // ——— API keys of the public API (Cognito only: a key never manages keys) and its OpenAPI document ———
  route(createApiKeyRoute, 'create-api-key', { tables: { apiKeys: 'write' } }),
  route(listApiKeysRoute, 'list-api-keys', { tables: { apiKeys: 'read' } }),
  route(revokeApiKeyRoute, 'revoke-api-key', { tables: { apiKeys: 'write' } }),
  // The public API's description, generated from the zod contracts: public, as any API reference is.
  route(getOpenApiRoute, 'get-openapi'),
  route(requestAccountDeletionRoute, 'request-account-deletion', {
    // Checks the typed e-mail, marks the profile and starts the delete-account workflow; answers 202.
    tables: { profiles: 'write' },
    workflows: ['deleteAccount'],
  }),
  route(exportAccountDataRoute, 'export-account-data', {
    // "Download my data": takes the account's one export place and counts its daily allowance (limits table), records
    // the export on the profile (made now if the account has none) and starts the accountExport workflow; it also
    // looks up the execution of an export that may be lost. The zip is workflow work.
    tables: { ...LEDGER_WRITE, limits: 'write' },
    workflows: ['accountExport'],
  }),
  // The latest export: HEAD of its zip, and the zip signed for download.
  route(getAccountExportRoute, 'get-account-export', { tables: { profiles: 'read' }, buckets: { results: 'read' } }),
  // ——— Outgoing webhooks (Standard Webhooks; lambdas/domain/webhooks/) ———
  route(createWebhookRoute, 'create-webhook', {
    // Checks the address (https, public after resolution), answers the signing secret once.
    tables: { webhooks: 'write' },
  }),
  route(listWebhooksRoute, 'list-webhooks', { tables: { webhooks: 'read' } }),
  route(listWebhookDeliveriesRoute, 'list-webhook-deliveries', { tables: { webhooks: 'read' } }),
  route(deleteWebhookRoute, 'delete-webhook', { tables: { webhooks: 'write' } }),
  route(sendWebhookTestRoute, 'send-webhook-test', {
    // Starts the delivery workflow of a webhook.test event to one endpoint.
    tables: { webhooks: 'read' },
    workflows: ['webhookDelivery'],
  }),
  // ——— Support (lambdas/domain/support/): a ticket is stored, then mailed to the stage's support address ———
  // Counts the caller's tickets per minute in the limits table.
  route(createSupportTicketRoute, 'create-support-ticket', { tables: { tickets: 'write', limits: 'write' } }),
  route(listSupportTicketsRoute, 'list-support-tickets', { tables: { tickets: 'read' } }),
  // The demo page's contact form: a visitor without an account, limited per address, stored and mailed like a ticket.
  route(createContactRequestRoute, 'create-contact-request', { tables: { tickets: 'write', limits: 'write' } }),
  // ——— Publishing to Shopify (lambdas/domain/shopify/): connections, product search, publications ———
  route(listShopsRoute, 'list-shops', { tables: { shops: 'read' } }),
  // auth.begin signs the state cookie with the app's secret; the install under way is remembered by its state.
  route(connectShopRoute, 'connect-shop', { tables: { shops: 'write' }, secrets: SHOPIFY_APP }),
  route(shopifyCallbackRoute, 'shopify-callback', {
    // Checks the HMAC and the state, exchanges the code (Shopify's answer within seconds), seals and stores the tokens.
    tables: { shops: 'write' },
    secrets: SHOPIFY_TOKENS,
    timeoutSeconds: 15,
  }),
  route(disconnectShopRoute, 'disconnect-shop', { tables: { shops: 'write' }, secrets: SHOPIFY_TOKENS, timeoutSeconds: 15 }),
  // A token due for refresh is refreshed (and stored) on the way.
  route(searchShopProductsRoute, 'search-shop-products', { tables: { shops: 'write' }, secrets: SHOPIFY_TOKENS, timeoutSeconds: 15 }),
  route(listProductMatchesRoute, 'list-product-matches', { tables: { publications: 'read' } }),
  route(publishToShopRoute, 'publish-to-shop', {
    // Reads the results and their stored sizes, asks the shop for the products, records and starts the publication.
    tables: { shops: 'write', publications: 'write', generations: 'read' },
    buckets: { results: 'read' },
    workflows: ['publish'],
    secrets: SHOPIFY_TOKENS,
    timeoutSeconds: 20,
  }),
  route(listPublicationsRoute, 'list-publications', { tables: { publications: 'read' } }),
  route(getPublicationRoute, 'get-publication', { tables: { publications: 'read' } }),
  route(shopifyWebhookRoute, 'shopify-webhook', {
    // Verified with the app's secret; app/uninstalled ends a connection, shop/redact erases a shop's records.
    tables: { shops: 'write', publications: 'write', generations: 'write' },
    secrets: SHOPIFY_APP,
    timeoutSeconds: 20,
  }),
]) satisfies readonly RouteDefinition[])();

/** CORS of the HTTP API: the same settings for API Gateway and the local gateway. */
export const CORS = {
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-api-key'],
  maxAgeSeconds: 600,
} as const;

/** The API-key authorizer of the public API (`/v1/…`): finds a key by its hash, records its use once a minute. */
/** The authorizer finds the key (and records its use) and refuses a key of an account being deleted. */
export const API_KEY_AUTHORIZER = { handler: 'api-key-authorize', tables: { apiKeys: 'write', profiles: 'read' } } as const satisfies Pick<RouteDefinition, 'handler' | 'tables'>;

/** The routes the public API serves under `/v1`. */
export const publicApiRoutes = (routes: readonly RouteDefinition[] = ROUTES): RouteDefinition[] => routes.filter((route) => route.publicApi);

/**
 * What a route's function may touch: its tables, plus what the caller gate (domain/caller-gate.ts) reads before every
 * user route: the profile's deletion marks, and for the public API the key's revoked state and its counters.
 */
export function routeTables(route: RouteDefinition): RouteDefinition['tables'] {
  if (route.auth !== 'user') return route.tables;
  const tables: NonNullable<RouteDefinition['tables']> = { ...route.tables };
  tables.profiles ??= 'read';
  if (route.publicApi) {
    tables.apiKeys ??= 'read';
    tables.limits = 'write';
  }
  return tables;
}
