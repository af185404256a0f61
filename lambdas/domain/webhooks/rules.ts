// Whether local targets are allowed, how deliveries are signed and when they are retried (no network code here,
// so the functions that only list or start deliveries stay small).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Set ('1') by the local twin only: http:// and loopback addresses (any port) may receive webhooks, so a developer
 * can receive them on http://localhost. The cloud stack never sets it, and a Lambda runtime ignores it.
 */
export const WEBHOOKS_ALLOW_LOCAL_ENV = 'MODELLOOP_WEBHOOKS_ALLOW_LOCAL';

export function localTargetsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[WEBHOOKS_ALLOW_LOCAL_ENV] === '1' && !env.AWS_LAMBDA_RUNTIME_API;
}

/**
 * Seconds to wait before each retry (the first try is at once): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight
 * tries over about 28 hours. WEBHOOK_RETRY_DELAYS (comma-separated seconds) replaces it.
 */
export const DEFAULT_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
export const RETRY_DELAYS_ENV = 'WEBHOOK_RETRY_DELAYS';

export function retryDelays(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env[RETRY_DELAYS_ENV]?.trim();
  if (!raw) return [...DEFAULT_RETRY_DELAYS];
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (delays.some((delay) => !Number.isInteger(delay) || delay < 0 || delay > 86_400)) {
    throw new Error(`Invalid configuration: ${RETRY_DELAYS_ENV} must list whole seconds (0–86400), comma-separated`);
  }
  return delays;
}

/** `whsec_` + base64 of 24 random bytes (the Standard Webhooks secret format). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The three Standard Webhooks headers of one delivery: the same id on every retry, the time of this attempt. */
export function signedHeaders(secret: string, messageId: string, at: Date, payload: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, payload),
  };
}
