// The receipts list of the billing page: the user's purchases (the ledger's purchase entries) with what was paid,
// Stripe's receipt, and whether a refund of unused credits would be accepted now. No Stripe call: kept out of the
// Stripe client's bundle.
import { REFUND_WINDOW_DAYS, type PurchaseReceipt } from '../../contracts/api.js';
import { getProfile } from '../../data/credits-repo.js';
import { listLedgerEntriesByPrefix } from '../../data/payments-repo.js';

const DAY_MS = 86_400_000;

/** The user's purchases, newest first, with what a receipt shows and whether a refund is possible now. */
export async function listPurchases(userId: string, now = new Date()): Promise<PurchaseReceipt[]> {
  const [purchases, refunds, profile] = await Promise.all([
    listLedgerEntriesByPrefix(userId, 'purchase#'),
    listLedgerEntriesByPrefix(userId, 'refund_of_purchase#'),
    getProfile(userId),
  ]);
  const refunded = new Set(refunds.map((entry) => entry.payment?.checkout_session_id));
  const balance = profile?.current_credits ?? 0;
  return purchases
    .map((entry): PurchaseReceipt => {
      const payment = entry.payment;
      const isRefunded = Boolean(payment && refunded.has(payment.checkout_session_id));
      const inWindow = now.getTime() - Date.parse(entry.created_at) <= REFUND_WINDOW_DAYS * DAY_MS;
      return {
        transactionId: entry.id,
        credits: entry.amount,
        created_at: entry.created_at,
        description: entry.description,
        ...(payment ? { amount_cents: payment.amount_cents, currency: payment.currency } : {}),
        ...(payment?.receipt_url ? { receipt_url: payment.receipt_url } : {}),
        refunded: isRefunded,
        refundable: Boolean(payment) && !isRefunded && inWindow && balance >= entry.amount,
      };
    })
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
}
