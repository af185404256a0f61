// The one route table of the HTTP API. CDK builds API Gateway routes and one Lambda per entry from it;
// the local gateway serves the same entries by calling the same handler modules in-process.
import type { BucketName, TableName } from './data/tables.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Access = 'read' | 'write';
/** 'put': only s3:PutObject (and the tag uploads are created with), for functions that sign uploads and never read a file. */
export type BucketAccess = Access | 'put';

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway path syntax: /clothing-items/{id} */
  path: string;
  /** Module lambdas/handlers/<handler>.ts, exporting `handler`. */
  handler: string;
  /** 'user': a verified Cognito ID token is required (the JWT authorizer); 'public': none. */
  auth: 'user' | 'public';
  /** What the function touches; CDK grants exactly this and passes the names in the same call. */
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, BucketAccess>>;
  /** Workflows the function starts, stops or describes (lambdas/workflows.ts). */
  workflows?: readonly string[];
  /** Longer work than the default 10 s (still always below API Gateway's 29 s). */
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * Also served by the public API at `/v1<path>` to callers with an API key (the API-key authorizer), through the
   * same function. Such a function also counts each key's requests (the limits table).
   */
  publicApi?: boolean;
}

/**
 * Bundled ahead of the handler of every user route, on both hosts (the cloud's esbuild `inject`, the twin's handler
 * loader): installs the caller gate into the http wrapper, which refuses every call of a user route without it. So the
 * gate (a deleted account, a revoked key, the key's rate) follows from `auth: 'user'`, and no handler imports it.
 */
export const USER_ROUTE_PRELUDE = 'lambdas/domain/caller-gate.ts';

/** What moving a balance needs: the profile and the ledger (a debit, a refund, the sign-up grant of a first call). */
export const LEDGER_WRITE = { profiles: 'write', ledger: 'write' } as const satisfies Partial<Record<TableName, Access>>;
/** A route that spends also counts its caller's requests against the per-user limits. */
export const SPENDING = { ...LEDGER_WRITE, limits: 'write' } as const satisfies Partial<Record<TableName, Access>>;

export const ROUTES = [
  // The first authenticated call of a new user creates the profile with the sign-up credits.
  { method: 'GET', path: '/profile', handler: 'get-profile', publicApi: true, auth: 'user', tables: LEDGER_WRITE },
  {
    method: 'GET',
    path: '/credit-transactions',
    handler: 'list-credit-transactions', publicApi: true,
    auth: 'user',
    tables: { ledger: 'read' },
  },
  {
    method: 'GET',
    path: '/pricing-tiers',
    handler: 'list-pricing-tiers',
    auth: 'public',
    tables: { pricingTiers: 'read' },
  },
  // The labelled test payment counts its grants per user and day in the payments table.
  { method: 'POST', path: '/credits/purchase', handler: 'purchase-credits', auth: 'user', tables: { ...LEDGER_WRITE, payments: 'write' } },
  {
    method: 'POST',
    path: '/clothing-items/upload-url',
    handler: 'create-clothing-upload-url', publicApi: true,
    auth: 'user',
    buckets: { clothingImages: 'put' },
  },
  {
    method: 'POST',
    path: '/clothing-items',
    handler: 'register-clothing-item', publicApi: true,
    auth: 'user',
    tables: { clothingItems: 'write' },
    // Reads the upload, decodes it fully with sharp, deletes what fails.
    buckets: { clothingImages: 'write' },
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'GET',
    path: '/clothing-items',
    handler: 'list-clothing-items', publicApi: true,
    auth: 'user',
    tables: { clothingItems: 'read' },
    buckets: { clothingImages: 'read' },
  },
  {
    method: 'GET',
    path: '/clothing-items/{id}',
    handler: 'get-clothing-item', publicApi: true,
    auth: 'user',
    tables: { clothingItems: 'read' },
    buckets: { clothingImages: 'read' },
  },
  {
    method: 'PATCH',
    path: '/clothing-items/{id}',
    handler: 'update-clothing-item',
    auth: 'user',
    tables: { clothingItems: 'write' },
    buckets: { clothingImages: 'read' },
  },
  {
    method: 'DELETE',
    path: '/clothing-items/{id}',
    handler: 'delete-clothing-item',
    auth: 'user',
    tables: { clothingItems: 'write' },
    buckets: { clothingImages: 'read' },
  },
  // ——— Saved models: personas used by image generation and batch (lambdas/domain/models/) ———
  {
    method: 'POST',
    path: '/models/upload-url',
    handler: 'create-model-upload-url', publicApi: true,
    auth: 'user',
    buckets: { clothingImages: 'put' },
  },
  {
    // An uploaded portrait is read and decoded fully (and deleted when it fails); a picked result is only looked up.
    method: 'POST',
    path: '/models',
    handler: 'create-model', publicApi: true,
    auth: 'user',
    tables: { models: 'write', generations: 'read' },
    buckets: { clothingImages: 'write', results: 'read' },
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'GET',
    path: '/models',
    handler: 'list-models', publicApi: true,
    auth: 'user',
    tables: { models: 'read' },
    buckets: { clothingImages: 'read', results: 'read' },
  },
  {
    method: 'PATCH',
    path: '/models/{id}',
    handler: 'update-model', publicApi: true,
    auth: 'user',
    tables: { models: 'write' },
    buckets: { clothingImages: 'read', results: 'read' },
  },
  {
    // Deletes the model (its place under the cap is freed in the same transaction) and its uploaded portrait.
    method: 'DELETE',
    path: '/models/{id}',
    handler: 'delete-model', publicApi: true,
    auth: 'user',
    tables: { models: 'write' },
    buckets: { clothingImages: 'write' },
  },
  // ——— Image generation, edit, upscale and the generations history (lambdas/domain/generation/) ———
  {
    // Checks the product image (an inline one is decoded and stored), charges, records, starts the workflow.
    method: 'POST',
    path: '/generate-ai-image',
    handler: 'generate-ai-image', publicApi: true,
    auth: 'user',
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read', models: 'read' },
    buckets: { results: 'write' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'POST',
    path: '/edit-ai-image',
    handler: 'edit-ai-image', publicApi: true,
    auth: 'user',
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read' },
    // An uploaded image is checked (and deleted when it is not one) before it is used.
    buckets: { results: 'write' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'POST',
    path: '/upscale-ai-image',
    handler: 'upscale-ai-image', publicApi: true,
    auth: 'user',
    tables: { ...SPENDING, generations: 'write', clothingItems: 'read', pricingTiers: 'read' },
    buckets: { results: 'write' },
    workflows: ['generation'],
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'POST',
    path: '/generation-uploads/upload-url',
    handler: 'create-generation-upload-url',
    auth: 'user',
    buckets: { results: 'put' },
  },
  {
    method: 'GET',
    path: '/generations',
    handler: 'list-generations', publicApi: true,
    auth: 'user',
    tables: { generations: 'read' },
    buckets: { results: 'read' },
  },
  {
    method: 'GET',
    path: '/generations/{id}',
    handler: 'get-generation', publicApi: true,
    auth: 'user',
    tables: { generations: 'read' },
    buckets: { results: 'read' },
  },
  { method: 'GET', path: '/edit-instructions', handler: 'get-edit-instructions', auth: 'public' },
  // ——— Video (generate-video, poll-operation, get-video-url, cancel, the jobs list) ———
  {
    method: 'POST',
    path: '/generate-video',
    handler: 'generate-video', publicApi: true,
    auth: 'user',
    // The source may be one of the caller's results or library items (read, then copied beside the job).
    tables: { ...SPENDING, jobs: 'write', pricingTiers: 'read', generations: 'write', clothingItems: 'read' },
    buckets: { results: 'write', clothingImages: 'read' },
    workflows: ['video'],
    // Decodes the whole source image (up to 6 MB) to check it.
    timeoutSeconds: 20,
    memoryMb: 1024,
  },
  {
    method: 'POST',
    path: '/poll-operation',
    handler: 'poll-operation', publicApi: true,
    auth: 'user',
    // Only reads: settling is workflow-ended's and the reconciler's.
    tables: { jobs: 'read' },
  },
  { method: 'POST', path: '/get-video-url', handler: 'get-video-url', publicApi: true, auth: 'user', tables: { jobs: 'read' }, buckets: { results: 'read' } },
  {
    method: 'POST',
    path: '/jobs/{id}/cancel',
    handler: 'cancel-job', publicApi: true,
    auth: 'user',
    tables: { ...LEDGER_WRITE, jobs: 'write', generations: 'write', limits: 'write' },
    workflows: ['video'],
  },
  {
    method: 'GET',
    path: '/jobs',
    handler: 'list-jobs', publicApi: true,
    auth: 'user',
    tables: { jobs: 'read' },
    buckets: { results: 'read' },
  },
  // ——— Payments: Stripe Checkout, its webhook, refunds of unused credits, receipts (lambdas/domain/payments/) ———
  {
    method: 'POST',
    path: '/credits/checkout',
    handler: 'create-checkout-session',
    auth: 'user',
    // Stripe's API answers within its own timeout (6 s) and one retry.
    timeoutSeconds: 15,
  },
  {
    // Authenticated by the Stripe-Signature over the raw body; grants through the ledger, records what it can't honour.
    method: 'POST',
    path: '/webhooks/stripe',
    handler: 'stripe-webhook',
    auth: 'public',
    tables: { ...LEDGER_WRITE, payments: 'write' },
    timeoutSeconds: 15,
  },
  {
    method: 'POST',
    path: '/credits/refund-requests',
    handler: 'request-refund',
    auth: 'user',
    // Takes the refunded credits back out of the balance (refund_of_purchase).
    tables: { ...LEDGER_WRITE, payments: 'write' },
    timeoutSeconds: 15,
  },
  {
    method: 'GET',
    path: '/credits/purchases',
    handler: 'list-purchases',
    auth: 'user',
    tables: { ledger: 'read' },
  },
  // ——— Importing a product photo from a link (lambdas/domain/imports/) ———
  {
    // Fetches a page and its images through the SSRF guard (10 s in all), keeps only the list of candidates.
    method: 'POST',
    path: '/imports',
    handler: 'create-import',
    auth: 'user',
    tables: { imports: 'write', limits: 'write' },
    timeoutSeconds: 15,
    memoryMb: 1024,
  },
  {
    // Downloads one candidate, checks it like an upload (full decode) and stores it in the caller's folder.
    method: 'POST',
    path: '/imports/{id}/select',
    handler: 'select-import-image',
    auth: 'user',
    tables: { imports: 'read', limits: 'write' },
    buckets: { clothingImages: 'write', results: 'write' },
    timeoutSeconds: 20,
  },
  // ——— Batch generation (generate-batch; lambdas/domain/batch/) ———
  {
    // Checks every entry, charges the batch in one debit, records it and its photo rows, starts the batch workflow.
    method: 'POST',
    path: '/generate-batch',
    handler: 'generate-batch', publicApi: true,
    auth: 'user',
    tables: { ...SPENDING, batches: 'write', generations: 'write', clothingItems: 'read', pricingTiers: 'read', models: 'read' },
    workflows: ['batch'],
    timeoutSeconds: 20,
  },
  {
    method: 'GET',
    path: '/batches',
    handler: 'list-batches', publicApi: true,
    auth: 'user',
    tables: { batches: 'read', generations: 'read' },
    // The batch's saved model portrait may be an upload (clothing-images) or a result.
    buckets: { results: 'read', clothingImages: 'read' },
  },
  {
    method: 'GET',
    path: '/batches/{id}',
    handler: 'get-batch', publicApi: true,
    auth: 'user',
    tables: { batches: 'read', generations: 'read' },
    buckets: { results: 'read', clothingImages: 'read' },
  },
  {
    // Builds the zip of the batch's photos (manifest.csv + PNGs) streamed into S3 once, then answers a signed URL.
    method: 'POST',
    path: '/batches/{id}/download',
    handler: 'download-batch', publicApi: true,
    auth: 'user',
    tables: { batches: 'write', generations: 'read' },
    buckets: { results: 'write' },
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  // Totals over the whole ledger, read page by page: Usage's bought, spent and refunded figures.
  { method: 'GET', path: '/credit-transactions/summary', handler: 'get-credit-summary', auth: 'user', tables: { ledger: 'read' } },
  // The median time of the caller's recent images and videos: the screens' "usually ready in about …".
  { method: 'GET', path: '/generation-durations', handler: 'get-generation-durations', auth: 'user', tables: { generations: 'read' } },
  // ——— API keys of the public API (Cognito only: a key never manages keys) and its OpenAPI document ———
  { method: 'POST', path: '/api-keys', handler: 'create-api-key', auth: 'user', tables: { apiKeys: 'write' } },
  { method: 'GET', path: '/api-keys', handler: 'list-api-keys', auth: 'user', tables: { apiKeys: 'read' } },
  { method: 'DELETE', path: '/api-keys/{id}', handler: 'revoke-api-key', auth: 'user', tables: { apiKeys: 'write' } },
  // The public API's description, generated from the zod contracts: public, as any API reference is.
  { method: 'GET', path: '/v1/openapi.json', handler: 'get-openapi', auth: 'public' },
  {
    // Checks the typed e-mail, marks the profile and starts the delete-account workflow; answers 202.
    method: 'POST',
    path: '/account/delete',
    handler: 'request-account-deletion',
    auth: 'user',
    tables: { profiles: 'write' },
    workflows: ['deleteAccount'],
  },
  {
    // "Download my data": a zip of the account's records and files streamed into the caller's folder, as a signed URL.
    method: 'POST',
    path: '/account/export',
    handler: 'export-account-data',
    auth: 'user',
    tables: { profiles: 'read', ledger: 'read', clothingItems: 'read', generations: 'read', jobs: 'read', batches: 'read', webhooks: 'read', apiKeys: 'read', imports: 'read', tickets: 'read', models: 'read' },
    buckets: { clothingImages: 'read', results: 'write' },
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  // ——— Outgoing webhooks (Standard Webhooks; lambdas/domain/webhooks/) ———
  {
    // Checks the address (https, public after resolution), answers the signing secret once.
    method: 'POST',
    path: '/webhooks',
    handler: 'create-webhook',
    auth: 'user',
    tables: { webhooks: 'write' },
  },
  { method: 'GET', path: '/webhooks', handler: 'list-webhooks', auth: 'user', tables: { webhooks: 'read' } },
  { method: 'GET', path: '/webhooks/deliveries', handler: 'list-webhook-deliveries', auth: 'user', tables: { webhooks: 'read' } },
  { method: 'DELETE', path: '/webhooks/{id}', handler: 'delete-webhook', auth: 'user', tables: { webhooks: 'write' } },
  {
    // Starts the delivery workflow of a webhook.test event to one endpoint.
    method: 'POST',
    path: '/webhooks/{id}/test',
    handler: 'send-webhook-test',
    auth: 'user',
    tables: { webhooks: 'read' },
    workflows: ['webhookDelivery'],
  },
  // ——— Support (lambdas/domain/support/): a ticket is stored, then mailed to the stage's support address ———
  { method: 'POST', path: '/support/tickets', handler: 'create-support-ticket', auth: 'user', tables: { tickets: 'write' } },
  { method: 'GET', path: '/support/tickets', handler: 'list-support-tickets', auth: 'user', tables: { tickets: 'read' } },
] as const satisfies readonly RouteDefinition[];

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
