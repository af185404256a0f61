// TEMP spending shim: refunds that name the debit they return. The lead's refundDebit in domain/credits.ts replaces
// this; until then it is today's refund keyed by the photo (refund#<photo id>), so it still happens once.
import { refund } from '../credits.js';

export function refundDebit(userId: string, r: { debitId: string; amount: number; ref: string; description: string }) {
  return refund(userId, { ref: r.ref, amount: r.amount, description: r.description });
}
