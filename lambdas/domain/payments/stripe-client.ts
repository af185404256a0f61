// The Stripe client and its two secrets (the API key and the webhook signing secret), each read once per container.
// A failed read is retried on the next call rather than cached.
import Stripe from 'stripe';
import { requireEnv } from '../../core/config.js';

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

/** host/port/protocol of a stand-in for Stripe's API (tests); Stripe's own API when unset. */
export function apiBaseOptions(base = process.env.STRIPE_API_BASE): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

let client: Promise<Stripe> | undefined;
export function stripe(): Promise<Stripe> {
  client ??= stripeApiKey()
    .then((key) => new Stripe(key, { ...apiBaseOptions(), timeout: STRIPE_TIMEOUT_MS, maxNetworkRetries: 1, telemetry: false }))
    .catch((error: unknown) => {
      client = undefined;
      throw error;
    });
  return client;
}

/** Verifying signatures needs no API key: a client without one. */
let verifier: Stripe | undefined;
export function webhookVerifier(): Stripe['webhooks'] {
  verifier ??= new Stripe('sk_unused_for_verification', { telemetry: false });
  return verifier.webhooks;
}

export { Stripe };
