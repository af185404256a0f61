// Buying credits with the labelled test payment (the twin, and stages listed as test stages; never prod). Card
// purchases go through /credits/checkout and are granted by Stripe's verified webhook.
import { purchaseCreditsRoute } from '../contracts/payments.js';
import { route } from '../core/http.js';
import { ensureProfile } from '../domain/credits.js';
import { buyWithTestPayment } from '../domain/payments/test-payment.js';

export const handler = route(purchaseCreditsRoute, async ({ body, caller, idempotencyKey }) => {
  await ensureProfile(caller);
  return buyWithTestPayment(caller.userId, body.credits, idempotencyKey);
},
);
