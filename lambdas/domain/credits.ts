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
  getProfileWithUsername,
  LedgerBusyError,
  type ProfileRepair,
  recordSignIn,
  repairProfile,
  type ApplyResult,
  type DebitBinding,
  type LedgerDraft,
  type LedgerItem,
  type LedgerReservation,
  toTransaction,
} from '../data/credits-repo.js';
import { log } from '../core/log.js';
import { emitMetrics } from '../core/metrics.js';
import { findPoolUser } from '../core/user-pool.js';

const now = () => new Date().toISOString();

export type { Caller };

const EPOCH = new Date(0).toISOString();

/**
 * The caller's profile, created with the sign-up credits on the first authenticated call; last_login follows sign-ins.
 * An ID token names the e-mail, the sign-in time and the pool username; an API key names none of them, so a profile
 * made by a key's first call reads the user from the pool (their e-mail, and their creation time for created_at and
 * the grant's date). A profile written before that (no e-mail, the epoch) or before the username was kept is
 * repaired by the next call that finds it so.
 */
export async function ensureProfile(caller: Caller): Promise<Profile> {
  const found = await getProfileWithUsername(caller.userId);
  if (!found) return createFirstProfile(caller);
  const existing = found.profile;
  // A deleted (or deleting) account keeps a tombstone: a token still valid for it gets no new profile or credits.
  if ('deleted_at' in existing || 'deletion_requested_at' in existing) throw accountDeleted();
  let profile = existing;
  const broken = !existing.email || existing.created_at === EPOCH || existing.last_login === EPOCH;
  if (broken || (!found.username && caller.username)) profile = await repair(caller, existing, found.username);
  if (!caller.apiKeyId && profile.last_login < caller.signedInAt) {
    await recordSignIn(caller.userId, caller.signedInAt);
    return { ...profile, last_login: caller.signedInAt };
  }
  return profile;
}

async function createFirstProfile(caller: Caller): Promise<Profile> {
  if (!caller.apiKeyId) return createProfile(caller.userId, caller.email, caller.signedInAt, caller.username);
  const user = await findPoolUser(caller.userId);
  // A key whose owner the pool no longer knows belongs to an account deleted outside the studio.
  if (!user) throw accountDeleted();
  return createProfile(caller.userId, user.email, user.createdAt, user.username);
}

async function repair(caller: Caller, existing: Profile, username: string | undefined): Promise<Profile> {
  const fix: ProfileRepair = {};
  if (!username && caller.username) fix.cognito_username = caller.username;
  if (!existing.email && caller.email) fix.email = caller.email;
  if (!existing.email || existing.created_at === EPOCH || existing.last_login === EPOCH || (!username && !caller.username)) {
    const user = await findPoolUser(caller.userId);
    if (user) {
      fix.email ??= user.email || undefined;
      fix.cognito_username ??= username ? undefined : user.username;
      if (existing.created_at === EPOCH) fix.created_at = user.createdAt;
    } else if (existing.created_at === EPOCH && !caller.apiKeyId) {
      fix.created_at = caller.signedInAt;
    }
  }
  if (existing.last_login === EPOCH) fix.last_login = caller.apiKeyId ? (fix.created_at ?? existing.created_at) : caller.signedInAt;
  await repairProfile(caller.userId, fix);
  log.info('profile repaired', { fields: Object.keys(fix) });
  return {
    ...existing,
    ...(fix.email ? { email: fix.email } : {}),
    ...(fix.created_at ? { created_at: fix.created_at } : {}),
    ...(fix.last_login ? { last_login: fix.last_login } : {}),
  };
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
  /** A limit taken with the charge (the caller's running work); a replay takes nothing. */
  reservation?: LimitedReservation;
}

/**
 * A limit's counter moved with a ledger entry, and the refusal to answer when the limit is reached (given the counter
 * as it stood, when the write asks DynamoDB to return it).
 */
export interface LimitedReservation {
  write: LedgerReservation;
  refusal: (held?: Record<string, unknown>) => AppError;
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

export async function debit(userId: string, { idempotencyKey, amount, description, ref, binding, reservation }: Debit): Promise<LedgerResult> {
  assertPositive(amount);
  const id = debitIdOf(idempotencyKey);
  const result = await apply(userId, { id, transaction_type: 'debit', amount: -amount, description, ref, binding, reservation: reservation?.write });
  if (result.outcome === 'insufficient') throw new InsufficientCreditsError(amount, result.available);
  if (result.outcome === 'limit-reached') throw reservation!.refusal(result.held);
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
  if (result.outcome === 'insufficient' || result.outcome === 'limit-reached') throw new Error(`a refund cannot be refused (${result.outcome})`);
  if (result.outcome === 'applied') emitMetrics({ GenerationsRefunded: 1, CreditsRefunded: amount }, { type });
  return { entry: toTransaction(result.entry), replayed: result.outcome === 'replayed', ref: result.entry.ref };
}

/**
 * Grants bought credits; keyed by the payment, so a payment confirmation delivered twice grants once. An allowance
 * (the day's test payments) is taken with the grant, so a replay takes none of it.
 */
export async function purchase(
  userId: string,
  { paymentId, credits, description, allowance }: { paymentId: string; credits: number; description: string; allowance?: LimitedReservation },
): Promise<LedgerResult> {
  assertPositive(credits);
  const applied = await apply(userId, {
    id: purchaseEntryId(paymentId),
    transaction_type: 'purchase',
    amount: credits,
    description,
    ref: paymentId,
    reservation: allowance?.write,
  });
  if (applied.outcome === 'limit-reached') throw allowance!.refusal(applied.held);
  const result = settled(applied);
  if (result.entry.transaction_type !== 'purchase' || result.entry.amount !== credits) throw KEY_REUSED();
  return result;
}

/** An entry applied or replayed as the caller sees it; a balance that can't hold a negative entry is a 402. */
function settled(result: ApplyResult): LedgerResult {
  if (result.outcome === 'insufficient') throw new InsufficientCreditsError(0, result.available);
  if (result.outcome === 'over-refund') throw new Error(`refund exceeding debit ${result.debitId}`);
  if (result.outcome === 'limit-reached') throw new Error('a reservation refused an entry that carried none');
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
