// The credits ledger's rules: what a debit, a refund, a purchase and the sign-up grant are.
// The balance only ever changes through applyLedgerEntry (data/credits-repo.ts).
//
// A debit is bound to the request that made it: its id comes from the Idempotency-Key (`debit#<key>`, one per user
// whatever the route), and it stores the operation and the request's hash. The same key again is a replay only for
// the same operation and body; anything else is a 409 and changes nothing. A refund names the debit it returns and
// can never take back more than that debit took.
import type { CreditTransaction, PaymentDetails, Profile } from '../contracts/api.js';
import { accountDeleted, AppError, conflict, InsufficientCreditsError } from '../core/errors.js';
import type { Caller } from '../core/http.js';
import {
  applyLedgerEntry,
  createProfile,
  getProfile,
  LedgerBusyError,
  recordSignIn,
  type ApplyResult,
  type DebitBinding,
  type LedgerDraft,
  type LedgerItem,
  toTransaction,
} from '../data/credits-repo.js';
import { log } from '../core/log.js';
import { emitMetrics } from '../core/metrics.js';

const now = () => new Date().toISOString();

export type { Caller };

/** The caller's profile, created with the sign-up credits on the first authenticated call; last_login follows sign-ins. */
export async function ensureProfile(caller: Caller): Promise<Profile> {
  const existing = await getProfile(caller.userId);
  if (!existing) return createProfile(caller.userId, caller.email, caller.signedInAt);
  // A deleted (or deleting) account keeps a tombstone: a token still valid for it gets no new profile or credits.
  if ('deleted_at' in existing || 'deletion_requested_at' in existing) throw accountDeleted();
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
  /** The record (generation, job, batch) this debit pays for. */
  ref: string;
  /** The request the charge belongs to; a replay must come from the same operation with the same body. */
  binding?: DebitBinding;
}

export interface LedgerResult {
  entry: CreditTransaction;
  /** True when the entry already existed: nothing was charged or credited this time. */
  replayed: boolean;
  /** The ref stored with the entry: on a replay, the record the first request paid for. */
  ref?: string;
}

export const debitIdOf = (idempotencyKey: string) => `debit#${idempotencyKey}`;

const KEY_REUSED = () =>
  conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request. Use a new key for a new request.');

export async function debit(userId: string, { idempotencyKey, amount, description, ref, binding }: Debit): Promise<LedgerResult> {
  assertPositive(amount);
  const id = debitIdOf(idempotencyKey);
  const result = await apply(userId, { id, transaction_type: 'debit', amount: -amount, description, ref, binding });
  if (result.outcome === 'insufficient') throw new InsufficientCreditsError(amount, result.available);
  if (result.outcome !== 'applied' && result.outcome !== 'replayed') throw new Error(`unexpected ledger outcome for ${id}`);
  const stored = result.entry;
  if (result.outcome === 'replayed') {
    const sameRequest =
      stored.transaction_type === 'debit' &&
      stored.amount === -amount &&
      stored.operation === binding?.operation &&
      stored.request_hash === binding?.request_hash;
    if (!sameRequest) throw KEY_REUSED();
  }
  return { entry: toTransaction(stored), replayed: result.outcome === 'replayed', ref: stored.ref };
}

export interface Refund {
  /** The debit this refund gives back (part of). */
  debitId: string;
  /** What the refund is for (a failed generation, one photo of a batch, the unstarted outputs of a job): one refund per ref. */
  ref: string;
  amount: number;
  description: string;
  /** What is refunded (a generation's operation, 'video', 'batch'): the metrics' `type` dimension. */
  type?: string;
}

/**
 * Gives back (part of) a debit; keyed by `ref`, so it happens once. The debit's refunds together never exceed what it
 * took: a refund past that is refused (nothing changes) and logged as the defect it would be.
 */
/** The ledger id of the refund keyed by `ref`. */
export const refundIdOf = (ref: string) => `refund#${ref}`;

/**
 * The ref of the refund of a debit whose record was never written (the request was cut off between its charge and
 * its record): the reconciler gives such a debit back, and a later retry of that request is refused, not served free.
 */
export const orphanRefundRef = (recordId: string) => `orphan:${recordId}`;

export async function refund(userId: string, { debitId, ref, amount, description, type = 'other' }: Refund): Promise<LedgerResult | undefined> {
  assertPositive(amount);
  const result = await apply(userId, { id: refundIdOf(ref), transaction_type: 'refund', amount, description, ref, refundOf: debitId });
  if (result.outcome === 'over-refund') {
    log.error('refund refused: it would exceed its debit', { userId, debitId, ref, amount });
    return undefined;
  }
  if (result.outcome === 'insufficient') throw new Error('a refund cannot be short of credits');
  if (result.outcome === 'applied') emitMetrics({ GenerationsRefunded: 1, CreditsRefunded: amount }, { type });
  return { entry: toTransaction(result.entry), replayed: result.outcome === 'replayed', ref: result.entry.ref };
}

/** Grants bought credits; keyed by the payment, so a payment confirmation delivered twice grants once. */
export async function purchase(
  userId: string,
  { paymentId, credits, description }: { paymentId: string; credits: number; description: string },
): Promise<LedgerResult> {
  assertPositive(credits);
  const result = settled(await apply(userId, { id: purchaseEntryId(paymentId), transaction_type: 'purchase', amount: credits, description, ref: paymentId }));
  if (result.entry.transaction_type !== 'purchase' || result.entry.amount !== credits) throw KEY_REUSED();
  return result;
}

/** An entry applied or replayed as the caller sees it; a balance that can't hold a negative entry is a 402. */
function settled(result: ApplyResult): LedgerResult {
  if (result.outcome === 'insufficient') throw new InsufficientCreditsError(0, result.available);
  if (result.outcome === 'over-refund') throw new Error(`refund exceeding debit ${result.debitId}`);
  return { entry: toTransaction(result.entry), replayed: result.outcome === 'replayed', ref: result.entry.ref };
}

/** When the ledger is too busy to take a write in time: nothing was charged, and the client may simply retry. */
export const LEDGER_BUSY_RETRY_SECONDS = 2;

async function apply(userId: string, draft: LedgerDraft) {
  try {
    return await applyLedgerEntry(userId, draft, now);
  } catch (error) {
    if (error instanceof LedgerBusyError) {
      throw new AppError(503, 'LEDGER_BUSY', 'Too many requests are spending credits at once. Nothing was charged; please try again.', {
        'retry-after': String(LEDGER_BUSY_RETRY_SECONDS),
      });
    }
    throw error;
  }
}

export type { LedgerItem };

function assertPositive(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`A ledger amount must be a positive whole number, got ${amount}`);
}

// ——— Card payments (Stripe Checkout) ———

/**
 * Grants credits paid by card; keyed by the Checkout Session, so a webhook delivered twice, replayed or out of order
 * grants once. The entry records what was paid (amount, currency, Stripe ids).
 */
export async function purchaseByCard(
  userId: string,
  { sessionId, credits, description, payment }: { sessionId: string; credits: number; description: string; payment: PaymentDetails },
): Promise<LedgerResult> {
  assertPositive(credits);
  return settled(await apply(userId, { id: purchaseEntryId(sessionId), transaction_type: 'purchase', amount: credits, description, ref: sessionId, payment }));
}

/**
 * Takes back the credits of a refunded card purchase, once per purchase (keyed by its Checkout Session) whoever asks
 * first: the refund request or Stripe's charge.refunded. Refused (InsufficientCreditsError) when the balance no longer
 * holds them.
 */
export async function refundOfPurchase(
  userId: string,
  { sessionId, credits, description, payment }: { sessionId: string; credits: number; description: string; payment: PaymentDetails },
): Promise<LedgerResult> {
  assertPositive(credits);
  return settled(await apply(userId, {
    id: refundOfPurchaseEntryId(sessionId),
    transaction_type: 'refund_of_purchase',
    amount: -credits,
    description,
    ref: sessionId,
    payment,
  }));
}

export const purchaseEntryId = (paymentId: string): string => `purchase#${paymentId}`;
export const refundOfPurchaseEntryId = (sessionId: string): string => `refund_of_purchase#${sessionId}`;
