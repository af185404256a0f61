import '../domain/caller-gate.js';
// Buying credits with the labelled test payment (the twin, and stages listed as test stages; never prod). Card
// purchases go through /credits/checkout and are granted by Stripe's verified webhook.
import { PurchaseCreditsRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { ensureProfile } from '../domain/credits.js';
import { buyWithTestPayment } from '../domain/payments/test-payment.js';

export const handler = userRoute({ body: PurchaseCreditsRequest, idempotent: true }, async ({ body, caller, idempotencyKey }) => {
  await ensureProfile(caller);
  return buyWithTestPayment(caller.userId, body.credits, idempotencyKey);
},
);
