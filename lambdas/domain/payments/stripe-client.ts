// Stripe through its official library (`stripe`): Checkout Sessions, refunds and payment intents through the client,
// webhook events through `Stripe.webhooks.constructEvent` over the raw body. The library follows the API's versions and
// is what a reviewer trusts; it costs the checkout, refund and webhook functions about 300 KB of bundle each, so they
// are the named exceptions of the bundle budget (test/infra/lean-functions.test.ts). The two secrets (the API key and
// the webhook signing secret) are read once per container; a failed read is retried on the next call, not cached.
import Stripe from 'stripe';
import { requireEnv } from '../../core/config.js';

export { Stripe };

/** The API version the integration was written and tested against (the one `stripe` 23.1 pins). */
export const STRIPE_API_VERSION = '2026-10-28.endive';
/** Stripe's webhook timeout is 10 s and a Lambda behind API Gateway has a few more; calls give up well before. */
const STRIPE_TIMEOUT_MS = 6_000;

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

/**
 * Where the client sends its requests: Stripe's API, or a stand-in for it (tests) when STRIPE_API_BASE is set, given
 * to the library as its host, port and protocol.
 */
export function stripeApiTarget(base = process.env.STRIPE_API_BASE): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

let client: Promise<Stripe> | undefined;

/**
 * The Stripe client of this container, made once the API key is read: the pinned API version, one retry of a network
 * error, 409 or 5xx (the library repeats the request's idempotency key), no telemetry headers.
 */
export function stripeClient(): Promise<Stripe> {
  client ??= stripeApiKey().then(
    (key) => new Stripe(key, { apiVersion: STRIPE_API_VERSION, maxNetworkRetries: 1, timeout: STRIPE_TIMEOUT_MS, telemetry: false, ...stripeApiTarget() }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/** Whether Stripe refused a request because its idempotency key was first used with other parameters. */
export const isIdempotencyError = (error: unknown): boolean => error instanceof Stripe.errors.StripeIdempotencyError;

/**
 * The event of a webhook delivery, once its Stripe-Signature is verified over the raw body with the endpoint's
 * secret by the library; throws when the header is malformed, no v1 signature matches, or the timestamp is older than
 * `toleranceSeconds`.
 */
export function verifyStripeEvent(rawBody: Buffer, header: string, secret: string, toleranceSeconds: number): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, header, secret, toleranceSeconds);
}
