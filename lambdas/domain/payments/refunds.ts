// Refunds of unused credits, asked for by the buyer within REFUND_WINDOW_DAYS of a card purchase. The credits are taken
// back first (one ledger entry per purchase, refused when the balance no longer holds them), then Stripe refunds the
// payment. Stripe is asked to create the refund once per purchase, whatever happens:
//   - a request that finds the refund's id recorded answers that refund and calls nothing;
//   - one request at a time holds the call (claimRefundCall); a request racing it waits for its answer;
//   - the call carries an idempotency key of the purchase, so the library's own network retry repeats it safely;
//   - a call whose answer never arrived is marked; the next request first lists the payment's refunds and adopts the one
//     that call made, because Stripe keeps an idempotency key only "at least 24 hours" ("Idempotent requests",
//     https://docs.stripe.com/api/idempotent_requests, read 2026-11-27: "We generate a new request if a key is reused
//     after the original is pruned") and a retry days later would otherwise be a new request.
// Stripe's own charge.refunded event for the refund finds the credits already taken (webhook.ts).
import { REFUND_WINDOW_DAYS, type CreditTransaction, type RefundResponse } from '../../contracts/api.js';
import { AppError, conflict, forbidden, InsufficientCreditsError, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { getLedgerEntry, getProfile } from '../../data/credits-repo.js';
import { claimRefundCall, getRefundRecord, recordRefund, releaseRefundCall } from '../../data/payments-repo.js';
import { refundOfPurchase, refundOfPurchaseEntryId } from '../credits.js';
import { paymentMode } from './settings.js';
import { stripeClient, type Stripe } from './stripe-client.js';

const DAY_MS = 86_400_000;

export const refundIdempotencyKey = (sessionId: string): string => `refund:${sessionId}`;

export async function requestRefund(userId: string, transactionId: string, now = new Date()): Promise<RefundResponse> {
  const purchase = await getLedgerEntry(userId, transactionId);
  if (!purchase || purchase.transaction_type !== 'purchase') throw notFound('There is no such purchase on your account.');
  const payment = purchase.payment;
  if (!payment) throw new AppError(400, 'NOT_REFUNDABLE', 'Test payments moved no money, so there is nothing to refund.');
  const sessionId = payment.checkout_session_id;

  if (paymentMode() !== 'stripe') throw forbidden('PAYMENTS_DISABLED', 'Card payments are not enabled on this deployment; contact support for a refund.');

  const already = await getLedgerEntry(userId, refundOfPurchaseEntryId(sessionId));
  if (already) {
    // Asked again: the refund we know of is the answer, whatever its status; Stripe is not called.
    const record = await getRefundRecord(sessionId);
    if (record?.refundId) {
      const profile = await getProfile(userId);
      return { transaction: already, newCredits: profile?.current_credits ?? already.balance_after, refund: { id: record.refundId, status: record.status } };
    }
  } else {
    if (now.getTime() - Date.parse(purchase.created_at) > REFUND_WINDOW_DAYS * DAY_MS) {
      throw new AppError(400, 'REFUND_WINDOW_CLOSED', `Refunds are possible within ${REFUND_WINDOW_DAYS} days of a purchase.`);
    }
  }
  let entry: CreditTransaction;
  try {
    ({ entry } = await refundOfPurchase(userId, {
      sessionId,
      credits: purchase.amount,
      description: `Refund of purchase: ${purchase.amount} credits ($${(payment.amount_cents / 100).toFixed(2)} returned to the card)`,
      payment,
    }));
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      throw conflict(
        'CREDITS_ALREADY_USED',
        `Only unused credits can be refunded: this purchase was ${purchase.amount} credits and your balance is ${error.available}.`,
      );
    }
    throw error;
  }

  if (!payment.payment_intent_id) throw new AppError(503, 'REFUND_PENDING', 'Your refund is recorded and will be completed by our team.');
  const refund = await refundOnce(userId, sessionId, payment.payment_intent_id);
  const profile = await getProfile(userId);
  return { transaction: entry, newCredits: profile?.current_credits ?? entry.balance_after, refund };
}

/** How long one request holds the call to Stripe: more than the call with the library's retry can take. */
const CALL_HOLD_MS = 30_000;
/** How long a request racing the holder waits for its answer before asking the buyer to try again. */
const RACE_WAIT_MS = 8_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PENDING = () => new AppError(503, 'REFUND_PENDING', 'Your credits are set aside for the refund, but the payment provider could not be reached. Please try again in a minute.');

/** The purchase's refund at Stripe: the recorded one, the one an earlier call made, or one created now (once). */
async function refundOnce(userId: string, sessionId: string, paymentIntentId: string): Promise<{ id: string; status: string }> {
  const recorded = await getRefundRecord(sessionId);
  if (recorded?.refundId) return { id: recorded.refundId, status: recorded.status };
  if (!(await claimRefundCall(sessionId, userId, CALL_HOLD_MS))) {
    // Another request is asking Stripe right now (or has just been answered): its answer is ours.
    for (const deadline = Date.now() + RACE_WAIT_MS; Date.now() < deadline; ) {
      await sleep(150);
      const record = await getRefundRecord(sessionId);
      if (record?.refundId) return { id: record.refundId, status: record.status };
    }
    throw PENDING();
  }
  try {
    const stripe = await stripeClient();
    // A call made before whose answer was lost may have created the refund: adopt it rather than asking again.
    const earlier = recorded?.askedBefore ? await existingRefund(stripe, paymentIntentId) : undefined;
    const refund =
      earlier ??
      (await stripe.refunds.create(
        { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { user_id: userId, checkout_session_id: sessionId } },
        { idempotencyKey: refundIdempotencyKey(sessionId) },
      ));
    await recordRefund(sessionId, { userId, status: refund.status ?? 'pending', refundId: refund.id });
    return { id: refund.id, status: refund.status ?? 'pending' };
  } catch (error) {
    log.error('stripe refund failed', { error, sessionId });
    await releaseRefundCall(sessionId);
    // The credits are already set aside for this refund; asking again looks for this call's refund first.
    throw PENDING();
  }
}

/** The payment's refund that was not refused (Stripe lists the newest first). */
export async function existingRefund(stripe: Stripe, paymentIntentId: string): Promise<Stripe.Refund | undefined> {
  const { data } = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 10 });
  return data.find((refund) => refund.status !== 'failed' && refund.status !== 'canceled');
}
