// Stripe, reduced to what ModelLoop calls, with no SDK in the bundle: the official library is about 270 KB minified,
// which kept the checkout, refund and webhook functions past their 400 KB budget for three form-encoded requests and
// one HMAC. Here: the two secrets (the API key and the webhook signing secret, each read once per container; a failed
// read is retried on the next call rather than cached), Stripe's REST API through fetch as Stripe documents it
// (form-encoded bodies with bracketed keys, Bearer key, Idempotency-Key, the pinned Stripe-Version, one retry of a
// network error, 409 or 5xx with the same key), and the webhook signature check of Stripe's documented scheme
// (`Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, any v1 may match, too old is refused).
// The types still come from the `stripe` package, as types only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import { requireEnv } from '../../core/config.js';

export type { Stripe };

/** The API version the integration was written and tested against (the one `stripe` 23.1 pins). */
export const STRIPE_API_VERSION = '2026-10-28.endive';
/** Stripe's webhook timeout is 10 s and a Lambda behind API Gateway has a few more; calls give up well before. */
const STRIPE_TIMEOUT_MS = 6_000;
const STRIPE_API = 'https://api.stripe.com';

function cachedSecret(envValue: string, envSecretName: string): () => Promise<string> {
  let cached: Promise<string> | undefined;
  async function load(): Promise<string> {
    const direct = process.env[envValue];
    if (direct) return direct;
    const secretId = requireEnv(envSecretName);
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
    const value = SecretString?.trim();
    if (!value) throw new Error(`Secret ${secretId} is empty`);
    return value;
  }
  return () => {
    cached ??= load().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}

export const stripeApiKey = cachedSecret('STRIPE_SECRET_KEY', 'STRIPE_API_KEY_SECRET_NAME');
export const stripeWebhookSecret = cachedSecret('STRIPE_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET_NAME');

/** The origin of Stripe's API, or of a stand-in for it (tests) when STRIPE_API_BASE is set. */
export function stripeApiBase(base = process.env.STRIPE_API_BASE): string {
  return (base || STRIPE_API).replace(/\/+$/, '');
}

/** An error answered by Stripe (`type` as Stripe names it, e.g. 'idempotency_error'), or a failed connection. */
export class StripeApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly type: string | undefined,
  ) {
    super(message);
    this.name = 'StripeApiError';
  }
}

type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };

/** Stripe's form encoding: nested objects and arrays as bracketed keys (`line_items[0][price_data][currency]`). */
export function stripeForm(params: Record<string, FormValue>): URLSearchParams {
  const form = new URLSearchParams();
  const add = (key: string, value: FormValue) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
    else if (typeof value === 'object') for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    else form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return form;
}

export interface StripeRequestOptions {
  idempotencyKey?: string;
  timeoutMs?: number;
  /** Retries of a network error, 409 (a concurrent request with the same key) or 5xx: 1 unless given. */
  retries?: number;
}

/** One call of Stripe's API: a POST with a form body, or a GET with the parameters as its query. */
export async function stripeRequest<T>(method: 'GET' | 'POST', path: string, params: Record<string, FormValue> = {}, options: StripeRequestOptions = {}): Promise<T> {
  const key = await stripeApiKey();
  const form = stripeForm(params).toString();
  const url = `${stripeApiBase()}${path}${method === 'GET' && form ? `?${form}` : ''}`;
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'stripe-version': STRIPE_API_VERSION };
  if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  const attempts = 1 + (options.retries ?? 1);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: method === 'POST' ? form : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? STRIPE_TIMEOUT_MS),
      });
    } catch (error) {
      if (attempt < attempts) continue;
      throw new StripeApiError(`Stripe could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, undefined);
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    if ((response.status === 409 || response.status >= 500) && attempt < attempts) continue;
    let detail: { type?: string; message?: string } = {};
    try {
      detail = (JSON.parse(text) as { error?: typeof detail }).error ?? {};
    } catch {
      // Not Stripe's JSON error: the status says enough.
    }
    throw new StripeApiError(detail.message ?? `Stripe answered ${response.status}`, response.status, detail.type);
  }
}

/**
 * The event of a webhook delivery, once its Stripe-Signature is verified over the raw body with the endpoint's
 * secret; throws when the header is malformed, no v1 signature matches, or the timestamp is older than `toleranceSeconds`.
 */
export function verifyStripeEvent(rawBody: Buffer, header: string, secret: string, toleranceSeconds: number, now = Date.now()): Stripe.Event {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) throw new Error('Unable to extract timestamp and signatures from header');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error('No signatures found matching the expected signature for payload');
  if (toleranceSeconds > 0 && Math.floor(now / 1000) - timestamp > toleranceSeconds) throw new Error('Timestamp outside the tolerance zone');
  return JSON.parse(rawBody.toString('utf8')) as Stripe.Event;
}
