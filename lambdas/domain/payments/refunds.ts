// Refunds of unused credits, asked for by the buyer within REFUND_WINDOW_DAYS of a card purchase. The credits are taken
// back first (one ledger entry per purchase, refused when the balance no longer holds them), then Stripe refunds the
// payment with an idempotency key of the purchase: a retried request, or Stripe's own charge.refunded event, never
// takes the credits or returns the money twice.
import { REFUND_WINDOW_DAYS, type CreditTransaction, type RefundResponse } from '../../contracts/api.js';
import { AppError, conflict, forbidden, InsufficientCreditsError, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { getLedgerEntry, getProfile } from '../../data/credits-repo.js';
import { getRefundRecord, recordRefund } from '../../data/payments-repo.js';
import { refundOfPurchase, refundOfPurchaseEntryId } from '../credits.js';
import { paymentMode } from './settings.js';
import { stripeClient } from './stripe-client.js';

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
    const record = await getRefundRecord(sessionId);
    if (record?.status === 'succeeded' && record.refundId) {
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
  await recordRefund(sessionId, { userId, status: 'pending' });
  try {
    const stripe = await stripeClient();
    const refund = await stripe.refunds.create(
      { payment_intent: payment.payment_intent_id, reason: 'requested_by_customer', metadata: { user_id: userId, checkout_session_id: sessionId } },
      { idempotencyKey: refundIdempotencyKey(sessionId) },
    );
    await recordRefund(sessionId, { userId, status: refund.status ?? 'pending', refundId: refund.id });
    const profile = await getProfile(userId);
    return { transaction: entry, newCredits: profile?.current_credits ?? entry.balance_after, refund: { id: refund.id, status: refund.status ?? 'pending' } };
  } catch (error) {
    log.error('stripe refund failed', { error, sessionId });
    // The credits are already set aside for this refund; asking again repeats only the Stripe call (same key).
    throw new AppError(503, 'REFUND_PENDING', 'Your credits are set aside for the refund, but the payment provider could not be reached. Please try again in a minute.');
  }
}
