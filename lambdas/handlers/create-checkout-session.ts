import '../domain/caller-gate.js';
// Starts a card purchase: answers the Stripe Checkout page to send the buyer to. Grants nothing.
import { CheckoutRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { createCheckout } from '../domain/payments/checkout.js';

export const handler = userRoute({ body: CheckoutRequest, idempotent: true }, ({ body, caller, idempotencyKey }) =>
  createCheckout(caller, { credits: body.credits, idempotencyKey }),
);
