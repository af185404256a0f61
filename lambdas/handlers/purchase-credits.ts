// Buying credits. Locally (and on a staging stage that turns it on) the payment is a clearly labelled test payment;
// otherwise this route refuses, and real purchases are granted from the payment provider's verified confirmation.
import { PurchaseCreditsRequest, type PurchaseCreditsResponse } from '../contracts/api.js';
import { priceUsd } from '../contracts/catalog.js';
import { forbidden } from '../core/errors.js';
import { userRoute } from '../core/http.js';
import { ensureProfile, purchase } from '../domain/credits.js';

const testPaymentsEnabled = process.env.TEST_PAYMENTS === 'enabled';

export const handler = userRoute({ body: PurchaseCreditsRequest, idempotent: true }, async ({ body, caller, idempotencyKey }) => {
  if (!testPaymentsEnabled) {
    throw forbidden('PAYMENTS_DISABLED', 'Card payments are not available yet on this deployment.');
  }
  await ensureProfile(caller);
  const paymentId = `local-test-${idempotencyKey}`;
  const amountUsd = priceUsd(body.credits);
  const { entry } = await purchase(caller.userId, {
    paymentId,
    credits: body.credits,
    description: `Purchase of ${body.credits} credits ($${amountUsd.toFixed(2)}, local test payment)`,
  });
  const response: PurchaseCreditsResponse = {
    credits: entry.amount,
    amountUsd: priceUsd(entry.amount),
    newCredits: entry.balance_after,
    transaction: entry,
    payment: { method: 'local-test-payment', id: paymentId },
  };
  return response;
});
