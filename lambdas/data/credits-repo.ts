// All DynamoDB access for profiles and the credits ledger (credit_transactions).
//
// Invariant: a profile's current_credits equals the sum of its ledger amounts. Every change of the balance is one
// TransactWriteItems that (1) moves the profile from ledger_seq n to n+1 with the new balance, and (2) puts the ledger
// entry with attribute_not_exists on an id derived from what caused it. (1) makes concurrent writers serialise and
// lets every entry carry an exact balance_after; (2) makes a retried request a replay instead of a second charge.
// A refund also (3) lowers the `refundable` amount of the debit it returns, on the condition that it stays at or
// above zero, so no sequence of refunds can give back more than was paid.
//
// Speed under contention. The write is optimistic: it is made against the profile state this process last saw, with
// no read before it. When another writer moved the profile first, the cancelled transaction itself answers the
// current profile (ReturnValuesOnConditionCheckFailure), so the retry needs no read either. Writers of one user in
// one process (the local twin serves every request in one process) queue behind each other instead of colliding.
// A write that cannot finish within its deadline gives up with LedgerBusyError and has changed nothing.
//
// Limits. An entry may carry a reservation: a conditional update of a limit's counter (the work a user has running,
// the day's test-payment allowance) that commits in the same transaction, so the limit is taken exactly when the entry
// is applied, and never by a replay of an entry that already exists.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CreditSummary, CreditTransaction, Profile } from '../contracts/api.js';
import { DEFAULT_PLAN_ID, SIGNUP_CREDITS } from '../contracts/catalog.js';
import { dynamo, queryAll } from './dynamo.js';
import { tableName } from './tables.js';
import { cancellationCodes, isConditionFailed } from './dynamo-errors.js';
import { jitter, sleep } from '../core/backoff.js';

interface ProfileItem extends Profile {
  ledger_seq: number;
  /** The user's name in the pool (`cognito:username`), which deleting the user needs: a federated user's is not the sub. */
  cognito_username?: string;
}

/** What a debit was for: the request it belongs to. A replay must match it exactly. */
export interface DebitBinding {
  /** The operation (route) that charged. */
  operation: string;
  /** sha256 of the canonical request body. */
  request_hash: string;
}

export interface LedgerItem extends CreditTransaction, Partial<DebitBinding> {
  seq: number;
  /** What the entry is about: the record a debit paid for, the record a refund gives back, a purchase's payment. */
  ref?: string;
  /** On a debit: how much of it may still be refunded (what it took, less the refunds that named it). */
  refundable?: number;
  /** On a refund: the id of the debit it returns. */
  refund_of?: string;
}

/** A conditional update of a limit's counter that commits with a ledger entry or not at all. */
export type LedgerReservation = Required<Pick<NonNullable<TransactWriteCommandInput['TransactItems']>[number], 'Update'>>;

export type LedgerDraft = Pick<CreditTransaction, 'id' | 'transaction_type' | 'amount' | 'description' | 'payment'> & {
  ref?: string;
  binding?: DebitBinding;
  /** A refund: the debit it returns. */
  refundOf?: string;
  /** Taken in the entry's transaction; when its condition fails the entry is not applied ('limit-reached'). */
  reservation?: LedgerReservation;
};

export type ApplyResult =
  | { outcome: 'applied' | 'replayed'; entry: LedgerItem }
  | { outcome: 'insufficient'; available: number }
  /** A refund that would take more back than its debit has left (or whose debit doesn't exist). Nothing changed. */
  | { outcome: 'over-refund'; debitId: string }
  /**
   * The entry's reservation found its limit reached. Nothing changed. `held`: the counter as it stood when it refused
   * (when the reservation asks for it with ReturnValuesOnConditionCheckFailure ALL_OLD).
   */
  | { outcome: 'limit-reached'; held?: Record<string, unknown> };

const SIGNUP_ENTRY_ID = 'grant#signup';
const THROTTLING = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TransactionInProgressException']);
/** Well inside API Gateway's 29 s: a request that waits this long for the ledger answers "busy, retry". */
const DEADLINE_MS = 8_000;

const toProfile = ({ ledger_seq: _seq, cognito_username: _username, ...profile }: ProfileItem): Profile => profile;
/** An entry as the API answers it: without the ledger's own bookkeeping (seq, ref, binding, refundable). */
export const toTransaction = ({ user_id, id, description, transaction_type, amount, balance_after, created_at, payment }: LedgerItem): CreditTransaction => ({
  user_id,
  id,
  description,
  transaction_type,
  amount,
  balance_after,
  created_at,
  ...(payment ? { payment } : {}),
});

/** The ledger could not take the write in time (heavy contention on one user). Nothing was applied. */
export class LedgerBusyError extends Error {
  constructor(readonly entryId: string) {
    super(`Ledger entry ${entryId} not applied within ${DEADLINE_MS} ms`);
  }
}

export async function getProfile(userId: string): Promise<Profile | undefined> {
  const item = await getProfileItem(userId);
  return item && toProfile(item);
}

/** The profile and the pool username it keeps (read together: the caller's profile path needs both). */
export async function getProfileWithUsername(userId: string): Promise<{ profile: Profile; username?: string } | undefined> {
  const item = await getProfileItem(userId);
  return item && { profile: toProfile(item), username: item.cognito_username };
}

async function getProfileItem(userId: string): Promise<ProfileItem | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('profiles'), Key: { id: userId }, ConsistentRead: true }),
  );
  return Item as ProfileItem | undefined;
}

/**
 * Creates the profile with the sign-up credits as its first ledger entry, in one transaction, so the grant happens
 * exactly once however many first calls race. Returns the profile as stored (created now or by a racing call).
 */
export async function createProfile(userId: string, email: string, now: string, username?: string): Promise<Profile> {
  const profile: ProfileItem = {
    id: userId,
    email,
    created_at: now,
    last_login: now,
    current_credits: SIGNUP_CREDITS,
    plan_id: DEFAULT_PLAN_ID,
    total_credits_spent: 0,
    ledger_seq: 1,
    ...(username ? { cognito_username: username } : {}),
  };
  const grant: LedgerItem = {
    user_id: userId,
    id: SIGNUP_ENTRY_ID,
    seq: 1,
    description: `Welcome bonus: ${SIGNUP_CREDITS} free video credits`,
    transaction_type: 'signup_bonus',
    amount: SIGNUP_CREDITS,
    balance_after: SIGNUP_CREDITS,
    created_at: now,
  };
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName('profiles'), Item: profile, ConditionExpression: 'attribute_not_exists(id)' } },
          { Put: { TableName: tableName('ledger'), Item: grant, ConditionExpression: 'attribute_not_exists(id)' } },
        ],
      }),
    );
    remember(profile);
    return toProfile(profile);
  } catch (error) {
    if (!cancellationCodes(error)) throw error;
    // Another call created it first (or is committing it right now): read what it stored.
    for (let attempt = 0; attempt < 20; attempt++) {
      const existing = await getProfileItem(userId);
      if (existing) return toProfile(existing);
      await sleep(jitter(attempt));
    }
    throw error;
  }
}

/** The user's name in the pool as the profile keeps it (undefined for a profile made before it was kept). */
export async function getPoolUsername(userId: string): Promise<string | undefined> {
  return (await getProfileItem(userId))?.cognito_username;
}

/** What a profile lacks: made by an API key's first call before it read the pool (no e-mail, the epoch), or before the pool username was kept. */
export interface ProfileRepair {
  email?: string;
  created_at?: string;
  last_login?: string;
  cognito_username?: string;
}

/**
 * Fills in what the profile lacks, and dates its sign-up grant at the profile's creation when it says the epoch. Each
 * field is written only while it is still missing (empty, the epoch, absent), so any number of calls repair it once.
 */
export async function repairProfile(userId: string, repair: ProfileRepair): Promise<void> {
  const epoch = new Date(0).toISOString();
  const missing: Record<keyof ProfileRepair, string> = {
    email: '(attribute_not_exists(email) OR email = :empty)',
    created_at: 'created_at = :epoch',
    last_login: 'last_login = :epoch',
    cognito_username: 'attribute_not_exists(cognito_username)',
  };
  for (const [field, value] of Object.entries(repair) as [keyof ProfileRepair, string | undefined][]) {
    if (!value) continue;
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName('profiles'),
          Key: { id: userId },
          UpdateExpression: 'SET #field = :value',
          ConditionExpression: `attribute_exists(id) AND ${missing[field]}`,
          ExpressionAttributeNames: { '#field': field },
          ExpressionAttributeValues: { ':value': value, ...(field === 'email' ? { ':empty': '' } : {}), ...(missing[field].includes(':epoch') ? { ':epoch': epoch } : {}) },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
  if (!repair.created_at) return;
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('ledger'),
        Key: { user_id: userId, id: SIGNUP_ENTRY_ID },
        UpdateExpression: 'SET created_at = :at',
        ConditionExpression: 'created_at = :epoch',
        ExpressionAttributeValues: { ':at': repair.created_at, ':epoch': epoch },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** Moves last_login forward to the sign-in time of the caller's token; never backwards. */
export async function recordSignIn(userId: string, signedInAt: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('profiles'),
        Key: { id: userId },
        UpdateExpression: 'SET last_login = :at',
        ConditionExpression: 'attribute_exists(id) AND last_login < :at',
        ExpressionAttributeValues: { ':at': signedInAt },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

// ——— The balance state this process last saw, per user, and the queue of this process's writers per user ———

interface BalanceState {
  seq: number;
  balance: number;
  spent: number;
}
const lastSeen = new Map<string, BalanceState>();
const queues = new Map<string, Promise<unknown>>();

function remember(profile: ProfileItem): BalanceState {
  const state = { seq: profile.ledger_seq, balance: profile.current_credits, spent: profile.total_credits_spent };
  lastSeen.set(profile.id, state);
  if (lastSeen.size > 10_000) lastSeen.delete(lastSeen.keys().next().value!);
  return state;
}

/** Runs `work` after this process's earlier writes of the same user have finished. */
function queued<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(userId) ?? Promise.resolve();
  const result = previous.then(work, work);
  const tail = result.catch(() => undefined);
  queues.set(userId, tail);
  void tail.then(() => {
    if (queues.get(userId) === tail) queues.delete(userId);
  });
  return result;
}

/**
 * Applies one ledger entry to the balance, exactly once. A debit that would take the balance below zero is not
 * applied. An entry whose id already exists is a replay: nothing changes and the stored entry is returned (the
 * caller decides whether it is the same request).
 */
export function applyLedgerEntry(userId: string, draft: LedgerDraft, now: () => string): Promise<ApplyResult> {
  return queued(userId, () => applyNow(userId, draft, now));
}

async function applyNow(userId: string, draft: LedgerDraft, now: () => string): Promise<ApplyResult> {
  const deadline = Date.now() + DEADLINE_MS;
  let state = lastSeen.get(userId);
  for (let attempt = 0; ; attempt++) {
    if (!state) {
      const profile = await getProfileItem(userId);
      if (!profile) throw new Error(`No profile for user ${userId}`);
      state = remember(profile);
    }
    const balanceAfter = state.balance + draft.amount;
    if (balanceAfter < 0) {
      const existing = await getLedgerItem(userId, draft.id);
      if (existing) return { outcome: 'replayed', entry: existing };
      // The balance we know may be stale: only a fresh read may refuse the debit.
      const fresh = await getProfileItem(userId);
      if (!fresh) throw new Error(`No profile for user ${userId}`);
      if (fresh.ledger_seq !== state.seq) {
        state = remember(fresh);
        continue;
      }
      return { outcome: 'insufficient', available: fresh.current_credits };
    }
    const entry: LedgerItem = {
      user_id: userId,
      id: draft.id,
      seq: state.seq + 1,
      description: draft.description,
      transaction_type: draft.transaction_type,
      amount: draft.amount,
      balance_after: balanceAfter,
      created_at: now(),
      ...(draft.ref ? { ref: draft.ref } : {}),
      ...(draft.binding ?? {}),
      ...(draft.transaction_type === 'debit' ? { refundable: -draft.amount } : {}),
      ...(draft.refundOf ? { refund_of: draft.refundOf } : {}),
      ...(draft.payment ? { payment: draft.payment } : {}),
    };
    const spent = state.spent + spentDelta(draft);
    try {
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('profiles'),
                Key: { id: userId },
                UpdateExpression: 'SET current_credits = :balance, ledger_seq = :seq, total_credits_spent = :spent',
                ConditionExpression: 'ledger_seq = :previousSeq',
                ExpressionAttributeValues: { ':balance': balanceAfter, ':seq': entry.seq, ':spent': spent, ':previousSeq': state.seq },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            { Put: { TableName: tableName('ledger'), Item: entry, ConditionExpression: 'attribute_not_exists(id)' } },
            ...(draft.refundOf ? [refundCap(userId, draft.refundOf, draft.amount)] : []),
            ...(draft.reservation ? [draft.reservation] : []),
          ],
        }),
      );
      lastSeen.set(userId, { seq: entry.seq, balance: balanceAfter, spent });
      return { outcome: 'applied', entry };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) {
        // Throttling that outlasted the SDK's own retries is contention too: retry until the deadline.
        if (!THROTTLING.has((error as Error).name)) throw error;
        if (Date.now() + 5 > deadline) throw new LedgerBusyError(draft.id);
        await sleep(jitter(attempt + 2));
        continue;
      }
      if (codes[1] === 'ConditionalCheckFailed') {
        const existing = await getLedgerItem(userId, draft.id);
        if (existing) return { outcome: 'replayed', entry: existing };
      }
      if (draft.refundOf && codes[2] === 'ConditionalCheckFailed' && codes[0] !== 'ConditionalCheckFailed') {
        return { outcome: 'over-refund', debitId: draft.refundOf };
      }
      if (draft.reservation && codes.at(-1) === 'ConditionalCheckFailed' && codes[0] !== 'ConditionalCheckFailed') {
        const held = (error as TransactionCanceledException).CancellationReasons?.at(-1)?.Item;
        return { outcome: 'limit-reached', ...(held ? { held: unmarshall(held) } : {}) };
      }
      // Another writer moved the profile first (its current state comes with the cancellation), or the transaction
      // collided with one in flight (TransactionConflict): retry against the newest state.
      state = profileFromCancellation(error) ?? undefined;
      if (Date.now() + 5 > deadline) throw new LedgerBusyError(draft.id);
      if (codes[0] !== 'ConditionalCheckFailed' || attempt > 2) await sleep(jitter(attempt));
    }
  }
}

/** The third item of a refund: what is left to refund of the debit shrinks by this refund, never below zero. */
function refundCap(userId: string, debitId: string, amount: number) {
  return {
    Update: {
      TableName: tableName('ledger'),
      Key: { user_id: userId, id: debitId },
      UpdateExpression: 'SET refundable = refundable - :amount',
      ConditionExpression: 'transaction_type = :debit AND refundable >= :amount',
      ExpressionAttributeValues: { ':amount': amount, ':debit': 'debit' },
    },
  };
}

function profileFromCancellation(error: unknown): BalanceState | undefined {
  const item = (error as TransactionCanceledException).CancellationReasons?.[0]?.Item;
  if (!item) return undefined;
  const profile = unmarshall(item) as ProfileItem;
  return remember(profile);
}

/** Debits count as spent, refunds give it back; purchases and grants don't change it. */
function spentDelta(draft: LedgerDraft): number {
  return draft.transaction_type === 'debit' || draft.transaction_type === 'refund' ? -draft.amount : 0;
}

export async function getLedgerItem(userId: string, id: string): Promise<LedgerItem | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('ledger'), Key: { user_id: userId, id }, ConsistentRead: true }),
  );
  return Item as LedgerItem | undefined;
}

export async function getLedgerEntry(userId: string, id: string): Promise<CreditTransaction | undefined> {
  const item = await getLedgerItem(userId, id);
  return item && toTransaction(item);
}

/** The user's newest ledger entries, newest first. */
export async function listLedger(userId: string, limit: number): Promise<CreditTransaction[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName('ledger'),
      IndexName: 'by_seq',
      KeyConditionExpression: 'user_id = :user',
      ExpressionAttributeValues: { ':user': userId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (Items as LedgerItem[]).map(toTransaction);
}

/** Every entry of the user as stored, oldest first: for audits of the invariants. */
export async function listWholeLedgerItems(userId: string): Promise<LedgerItem[]> {
  return queryAll<LedgerItem>({
    TableName: tableName('ledger'),
    IndexName: 'by_seq',
    KeyConditionExpression: 'user_id = :user',
    ExpressionAttributeValues: { ':user': userId },
    ConsistentRead: true,
  });
}

/** Every entry of the user, oldest first. */
export async function listWholeLedger(userId: string): Promise<CreditTransaction[]> {
  return (await listWholeLedgerItems(userId)).map(toTransaction);
}

/**
 * Totals over every entry of the user's ledger, read page by page (only type and amount), so a ledger of any length
 * is summed whole rather than its newest page. Not queryAll: each page is summed and dropped, so a long ledger is
 * never held in memory at once.
 */
export async function summarizeLedger(userId: string): Promise<CreditSummary> {
  const summary: CreditSummary = { bought: 0, granted: 0, charged: 0, refunded: 0, spent: 0, purchase_refunded: 0, purchases: 0, entries: 0 };
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName('ledger'),
        KeyConditionExpression: 'user_id = :user',
        ExpressionAttributeValues: { ':user': userId },
        ProjectionExpression: 'transaction_type, amount',
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    for (const { transaction_type: type, amount } of (page.Items ?? []) as Pick<CreditTransaction, 'transaction_type' | 'amount'>[]) {
      summary.entries += 1;
      if (type === 'purchase') {
        summary.bought += amount;
        summary.purchases += 1;
      } else if (type === 'signup_bonus') summary.granted += amount;
      else if (type === 'debit') summary.charged += -amount;
      else if (type === 'refund') summary.refunded += amount;
      else summary.purchase_refunded += -amount;
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  summary.spent = summary.charged - summary.refunded;
  return summary;
}
