// API keys: made from a CSPRNG, shown once, stored only as SHA-256(pepper + key). The pepper is a server-side secret
// (Secrets Manager in the cloud, read once per cold start; a fixed development value on the twin), so a copy of the
// table alone can't be used to check guesses. A key's 190 random bits make a slow hash unnecessary.
import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_LAST_USED_RESOLUTION_SECONDS,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  MAX_ACTIVE_API_KEYS,
  type ApiKeySummary,
  type CreatedApiKey,
} from '../contracts/api-keys.js';
import { conflict, notFound } from '../core/errors.js';
import type { ApiKeyAuthorizerContext } from '../core/http.js';
import { readCallerStanding } from '../data/account-repo.js';
import { findApiKeyByHash, listApiKeys, putApiKey, revokeApiKey, touchApiKey, type ApiKeyRecord } from '../data/api-keys-repo.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** How many characters of the key (after ml_) the list shows. */
const SHOWN_PREFIX_LENGTH = 4;

/** `ml_` + 32 base62 characters, unbiased (bytes ≥ 248 are drawn again). */
export function generateApiKey(): string {
  let out = '';
  while (out.length < API_KEY_RANDOM_LENGTH) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < API_KEY_RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

export const API_KEY_PEPPER_ENV = 'API_KEY_PEPPER';
export const API_KEY_PEPPER_SECRET_ENV = 'API_KEY_PEPPER_SECRET';

let pepper: Promise<string> | undefined;
/** The pepper: API_KEY_PEPPER (the twin), else the Secrets Manager secret named by API_KEY_PEPPER_SECRET, read once. */
function pepperValue(): Promise<string> {
  pepper ??= (async () => {
    const direct = process.env[API_KEY_PEPPER_ENV];
    if (direct) return direct;
    const secretId = process.env[API_KEY_PEPPER_SECRET_ENV];
    if (!secretId) throw new Error(`${API_KEY_PEPPER_ENV} or ${API_KEY_PEPPER_SECRET_ENV} must be set`);
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!secret.SecretString) throw new Error('the API key pepper secret is empty');
    return secret.SecretString;
  })();
  pepper.catch(() => (pepper = undefined));
  return pepper;
}

export async function hashApiKey(key: string): Promise<string> {
  return createHash('sha256').update(await pepperValue()).update(key).digest('hex');
}

function summaryOf(record: ApiKeyRecord): ApiKeySummary {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    last4: record.last4,
    created_at: record.created_at,
    last_used_at: record.last_used_at ?? null,
    revoked_at: record.revoked_at ?? null,
    status: record.revoked_at ? 'revoked' : 'active',
  };
}

/**
 * How long a create waits for the new key to appear in the by_hash index (eventually consistent, usually within a
 * second). The authorizer finds keys there and API Gateway caches its answer per key: a key handed out before the
 * index has it could be refused as unknown, and that refusal would be reused for the whole cache period.
 */
const INDEXED_WAIT_MS = 5000;
const INDEXED_POLL_MS = 100;

export async function createApiKey(userId: string, name: string): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const keyHash = await hashApiKey(key);
  const outcome = await putApiKey(
    { user_id: userId, key_hash: keyHash, name, prefix: key.slice(0, API_KEY_PREFIX.length + SHOWN_PREFIX_LENGTH), last4: key.slice(-4) },
    MAX_ACTIVE_API_KEYS,
  );
  if ('limitReached' in outcome) {
    throw conflict('API_KEY_LIMIT_REACHED', `You have ${MAX_ACTIVE_API_KEYS} active API keys, the most allowed. Revoke one you no longer use to create another.`);
  }
  // The key is shown only once the authorizer can find it, so its first use is never answered (and cached) as unknown.
  const deadline = Date.now() + INDEXED_WAIT_MS;
  while (!(await findApiKeyByHash(keyHash)) && Date.now() < deadline) await new Promise((resolveWait) => setTimeout(resolveWait, INDEXED_POLL_MS));
  return { ...summaryOf(outcome.created), key };
}

/** Newest first. */
export async function listKeys(userId: string): Promise<ApiKeySummary[]> {
  return (await listApiKeys(userId)).map(summaryOf).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

export async function revokeKey(userId: string, keyId: string): Promise<ApiKeySummary> {
  const outcome = await revokeApiKey(userId, keyId);
  if (outcome === 'not-found') throw notFound('No API key with this id.');
  const record = (await listApiKeys(userId)).find((key) => key.id === keyId);
  if (!record) throw notFound('No API key with this id.');
  return summaryOf(record);
}

/** The key a request carries: `x-api-key: ml_…` or `Authorization: Bearer ml_…`. */
export function keyFromHeaders(headers: Record<string, string | undefined>): string | undefined {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const direct = lower['x-api-key']?.trim();
  if (direct) return direct;
  const bearer = /^Bearer\s+(ml_\S*)$/i.exec(lower.authorization?.trim() ?? '');
  return bearer?.[1];
}

/**
 * The API-key authorizer's decision, as the context handed to the route: the key's owner, or why it is refused (a
 * key of an account being deleted is refused as the account is). A use is recorded at most once a minute per key
 * (the authorizer runs once per key and cache period anyway). Its answer is cached, so the caller gate checks the
 * key's revoked state and the account again on every request (domain/caller-gate.ts): revocation wins.
 */
export async function authorizeApiKey(key: string | undefined, now = new Date()): Promise<ApiKeyAuthorizerContext> {
  if (!key || !API_KEY_PATTERN.test(key)) return { denied: 'API_KEY_MALFORMED' };
  const record = await findApiKeyByHash(await hashApiKey(key));
  if (!record) return { denied: 'API_KEY_INVALID' };
  if (record.revoked_at) return { denied: 'API_KEY_REVOKED' };
  if ((await readCallerStanding(record.user_id)).accountDeleted) return { denied: 'ACCOUNT_DELETED' };
  await touchApiKey(record.user_id, record.id, API_KEY_LAST_USED_RESOLUTION_SECONDS, now);
  return { userId: record.user_id, keyId: record.id };
}

