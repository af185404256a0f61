// Starts a card purchase: answers the Stripe Checkout page to send the buyer to. Grants nothing.
import { createCheckoutSessionRoute } from '../contracts/payments.js';
import { route } from '../core/http.js';
import { createCheckout } from '../domain/payments/checkout.js';

export const handler = route(createCheckoutSessionRoute, ({ body, caller, idempotencyKey }) =>
  createCheckout(caller, { credits: body.credits, idempotencyKey }),
);
