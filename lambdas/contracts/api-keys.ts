// API keys of the public API (/v1): what the key routes accept and answer, and the rules both hosts share.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute } from './route.js';

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'ml_';
/** Random base62 characters after the prefix (about 190 bits). */
export const API_KEY_RANDOM_LENGTH = 32;
/** A key as a caller sends it. */
export const API_KEY_PATTERN = /^ml_[0-9A-Za-z]{32}$/;
/** The header a key travels in (API Gateway's authorizer caches its answer by this header's value). */
export const API_KEY_HEADER = 'x-api-key';
export const MAX_ACTIVE_API_KEYS = 10;
/**
 * How long an authorizer's answer for one key is reused, on both hosts: a revoked key stops working within this.
 * `last_used_at` is written at most once a minute per key.
 */
export const API_KEY_AUTH_CACHE_SECONDS = 30;
export const API_KEY_LAST_USED_RESOLUTION_SECONDS = 60;
/** The path prefix of the key-authenticated API. */
export const PUBLIC_API_PREFIX = '/v1';
/** Where the web app reaches the API on its own origin (CloudFront's /api behaviour in the cloud, the twin's gateway). */
export const API_PREFIX = '/api';

export const API_KEY_NAME_MAX_LENGTH = 60;

export const CreateApiKeyRequest = /* @__PURE__ */ (() => z.object({
  name: z.string().trim().min(1, 'Give the key a name.').max(API_KEY_NAME_MAX_LENGTH, `A key's name has at most ${API_KEY_NAME_MAX_LENGTH} characters.`),
}))();
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const ApiKeySummary = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  name: z.string(),
  /** `ml_` and the first characters, for display. */
  prefix: z.string(),
  last4: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(['active', 'revoked']),
}))();
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

/** The answer of POST /api-keys: the only time the secret is ever shown. */
export const CreatedApiKey = /* @__PURE__ */ (() => ApiKeySummary.extend({ key: z.string() }))();
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyList = /* @__PURE__ */ (() => z.object({ keys: z.array(ApiKeySummary) }))();
export type ApiKeyList = z.infer<typeof ApiKeyList>;

// ——— Routes (lambdas/contracts/route.ts): keys are managed with a sign-in only, never with a key ———

export const createApiKeyRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/api-keys',
  auth: 'user',
  summary: 'A new API key (its secret is in this answer only)',
  body: CreateApiKeyRequest,
  response: CreatedApiKey,
  status: 201,
  sample: { body: { name: 'Shopify sync' } },
}))();

export const listApiKeysRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/api-keys', auth: 'user', summary: 'Your API keys, never their secrets', response: ApiKeyList }))();

export const revokeApiKeyRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'DELETE',
  path: '/api-keys/{id}',
  auth: 'user',
  summary: 'Revoke an API key',
  response: ApiKeySummary,
  sample: { params: { id: 'key_sample' } },
}))();

/** The public API's description, generated from the route contracts: public, as any API reference is. */
export const getOpenApiRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/v1/openapi.json', auth: 'public', summary: "The public API's OpenAPI 3.1 document" }))();
