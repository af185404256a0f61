// The credits ledger's rules: what a debit, a refund, a purchase and the sign-up grant are.
// The balance only ever changes through applyLedgerEntry (data/credits-repo.ts).
import type { CreditTransaction, PaymentDetails, Profile } from '../contracts/api.js';
import { conflict, InsufficientCreditsError } from '../core/errors.js';
import {
  applyLedgerEntry,
  createProfile,
  getProfile,
  IdempotencyMismatchError,
  recordSignIn,
  type LedgerDraft,
} from '../data/credits-repo.js';

const now = () => new Date().toISOString();

export interface Caller {
  userId: string;
  email: string;
  /** When the caller signed in (the token's auth_time), ISO 8601. */
  signedInAt: string;
}

/** The caller's profile, created with the sign-up credits on the first authenticated call; last_login follows sign-ins. */
export async function ensureProfile(caller: Caller): Promise<Profile> {
  const existing = await getProfile(caller.userId);
  if (!existing) return createProfile(caller.userId, caller.email, caller.signedInAt);
  if (existing.last_login < caller.signedInAt) {
    await recordSignIn(caller.userId, caller.signedInAt);
    return { ...existing, last_login: caller.signedInAt };
  }
  return existing;
}

export interface Debit {
  /** The client's idempotency key: the same key never charges twice. */
  idempotencyKey: string;
  amount: number;
  description: string;
  /** The generation or job this debit pays for. */
  ref: string;
}

export interface LedgerResult {
  entry: CreditTransaction;
  /** True when the entry already existed: nothing was charged or credited this time. */
  replayed: boolean;
  /** The ref stored with the entry: on a replay, the generation or job the first request paid for. */
  ref?: string;
}

export function debit(userId: string, { idempotencyKey, amount, description, ref }: Debit): Promise<LedgerResult> {
  assertPositive(amount);
  return apply(userId, { id: `debit#${idempotencyKey}`, transaction_type: 'debit', amount: -amount, description, ref });
}

/** Gives back what a failed or cancelled generation cost; keyed by the generation, so it happens once. */
export function refund(userId: string, { ref, amount, description }: Omit<Debit, 'idempotencyKey'>): Promise<LedgerResult> {
  assertPositive(amount);
  return apply(userId, { id: `refund#${ref}`, transaction_type: 'refund', amount, description, ref });
}

/** Grants bought credits; keyed by the payment, so a payment confirmation delivered twice grants once. */
export function purchase(userId: string, { paymentId, credits, description }: { paymentId: string; credits: number; description: string }): Promise<LedgerResult> {
  assertPositive(credits);
  return apply(userId, { id: `purchase#${paymentId}`, transaction_type: 'purchase', amount: credits, description, ref: paymentId });
}

async function apply(userId: string, draft: LedgerDraft): Promise<LedgerResult> {
  try {
    const result = await applyLedgerEntry(userId, draft, now);
    if (result.outcome === 'insufficient') throw new InsufficientCreditsError(-draft.amount, result.available);
    return { entry: result.entry, replayed: result.outcome === 'replayed', ref: result.ref };
  } catch (error) {
    if (error instanceof IdempotencyMismatchError) {
      throw conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request.');
    }
    throw error;
  }
}

function assertPositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`A ledger amount must be a positive whole number, got ${amount}`);
}

// ——— Card payments (Stripe Checkout) ———

/**
 * Grants credits paid by card; keyed by the Checkout Session, so a webhook delivered twice, replayed or out of order
 * grants once. The entry records what was paid (amount, currency, Stripe ids).
 */
export function purchaseByCard(
  userId: string,
  { sessionId, credits, description, payment }: { sessionId: string; credits: number; description: string; payment: PaymentDetails },
): Promise<LedgerResult> {
  assertPositive(credits);
  return apply(userId, { id: purchaseEntryId(sessionId), transaction_type: 'purchase', amount: credits, description, ref: sessionId, payment });
}

/**
 * Takes back the credits of a refunded card purchase, once per purchase (keyed by its Checkout Session) whoever asks
 * first: the refund request or Stripe's charge.refunded. Refused (InsufficientCreditsError) when the balance no longer
 * holds them.
 */
export function refundOfPurchase(
  userId: string,
  { sessionId, credits, description, payment }: { sessionId: string; credits: number; description: string; payment: PaymentDetails },
): Promise<LedgerResult> {
  assertPositive(credits);
  return apply(userId, {
    id: refundOfPurchaseEntryId(sessionId),
    transaction_type: 'refund_of_purchase',
    amount: -credits,
    description,
    ref: sessionId,
    payment,
  });
}

export const purchaseEntryId = (paymentId: string): string => `purchase#${paymentId}`;
export const refundOfPurchaseEntryId = (sessionId: string): string => `refund_of_purchase#${sessionId}`;
