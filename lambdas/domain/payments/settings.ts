// How this deployment takes payments, read from the function's environment:
//   PAYMENTS       stripe | test | off (off when unset)
//   STAGE          the deployment's stage; the test payment never runs where it is 'prod'
//   WEB_URL        the web app's origin: where Stripe Checkout sends the buyer back
//   Stripe's secrets: in the cloud the names of two Secrets Manager secrets (STRIPE_API_KEY_SECRET_NAME,
//   STRIPE_WEBHOOK_SECRET_NAME), read once per container; on the twin the values themselves (STRIPE_SECRET_KEY, a
//   test-mode key, and STRIPE_WEBHOOK_SECRET, e.g. from `stripe listen`).
//   STRIPE_API_BASE  tests only: a local stand-in for Stripe's API (http://127.0.0.1:port).
import { PaymentMode } from '../../contracts/api.js';

export function paymentMode(env: NodeJS.ProcessEnv = process.env): PaymentMode {
  const parsed = PaymentMode.safeParse(env.PAYMENTS ?? 'off');
  return parsed.success ? parsed.data : 'off';
}

/** The test payment grants credits for nothing: never where the stage says prod, whatever else is configured. */
export function testPaymentAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return paymentMode(env) === 'test' && env.STAGE !== 'prod';
}
