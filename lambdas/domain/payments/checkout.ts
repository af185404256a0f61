// Starting a card purchase: a Stripe Checkout Session for one line item (credits × $0.10). Nothing is granted here;
// the credits come only from Stripe's verified webhook (webhook.ts).
import type { CheckoutResponse } from '../../contracts/api.js';
import { priceUsd } from '../../contracts/catalog.js';
import { AppError, conflict, forbidden } from '../../core/errors.js';
import { requireEnv } from '../../core/config.js';
import { log } from '../../core/log.js';
import { paymentMode } from './settings.js';
import { isIdempotencyError, stripeClient, type Stripe } from './stripe-client.js';

export const CURRENCY = 'usd';
export const PAYMENTS_UNAVAILABLE = new AppError(503, 'PAYMENTS_UNAVAILABLE', 'Payments are unavailable right now, nothing was charged.');

/** Price of a number of credits in cents. */
export const priceCents = (credits: number): number => Math.round(priceUsd(credits) * 100);

/** The metadata every Checkout Session carries; the webhook grants only when it matches the session. */
export interface CheckoutMetadata {
  user_id: string;
  credits: string;
}

/** Stripe's idempotency key of a checkout: the same Idempotency-Key of the same user opens the same session. */
export const checkoutIdempotencyKey = (userId: string, idempotencyKey: string): string => `checkout:${userId}:${idempotencyKey}`;

export async function createCheckout(
  caller: { userId: string; email: string },
  { credits, idempotencyKey }: { credits: number; idempotencyKey: string },
): Promise<CheckoutResponse> {
  if (paymentMode() !== 'stripe') {
    throw forbidden('PAYMENTS_DISABLED', 'Card payments are not enabled on this deployment.');
  }
  const webUrl = requireEnv('WEB_URL').replace(/\/+$/, '');
  const metadata: CheckoutMetadata = { user_id: caller.userId, credits: String(credits) };
  const stripe = await stripeClient().catch((error: unknown) => {
    log.error('stripe key unavailable', { error });
    throw PAYMENTS_UNAVAILABLE;
  });
  try {
    const session: Stripe.Checkout.Session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: CURRENCY,
              unit_amount: priceCents(credits),
              product_data: { name: `${credits.toLocaleString('en-US')} ModelLoop credits` },
            },
          },
        ],
        client_reference_id: caller.userId,
        metadata: { ...metadata },
        payment_intent_data: { metadata: { ...metadata } },
        ...(caller.email ? { customer_email: caller.email } : {}),
        success_url: `${webUrl}/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${webUrl}/dashboard/billing?checkout=cancelled`,
      },
      { idempotencyKey: checkoutIdempotencyKey(caller.userId, idempotencyKey) },
    );
    if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
    return { url: session.url, sessionId: session.id };
  } catch (error) {
    if (isIdempotencyError(error)) {
      throw conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request.');
    }
    log.error('stripe checkout failed', { error });
    throw PAYMENTS_UNAVAILABLE;
  }
}
