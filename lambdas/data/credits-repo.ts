// All DynamoDB access for profiles and the credits ledger (credit_transactions).
//
// Invariant: a profile's current_credits equals the sum of its ledger amounts. Every change of the balance is one
// TransactWriteItems that (1) moves the profile from ledger_seq n to n+1 with the new balance, and (2) puts the ledger
// entry with attribute_not_exists on an id derived from what caused it. (1) makes concurrent writers serialise and
// lets every entry carry an exact balance_after; (2) makes a retried request a replay instead of a second charge.
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CreditTransaction, Profile } from '../contracts/api.js';
import { DEFAULT_PLAN_ID, SIGNUP_CREDITS } from '../contracts/catalog.js';
import { dynamo } from '../core/dynamo.js';
import { tableName } from '../core/config.js';
import { cancellationCodes, isConditionFailed } from './dynamo-errors.js';

interface ProfileItem extends Profile {
  ledger_seq: number;
}
interface LedgerItem extends CreditTransaction {
  seq: number;
  /** What the entry is about: the generation or job a debit or refund belongs to, the payment of a purchase. */
  ref?: string;
}

export type LedgerDraft = Pick<CreditTransaction, 'id' | 'transaction_type' | 'amount' | 'description' | 'payment'> & {
  ref?: string;
};

export type ApplyResult =
  | { outcome: 'applied' | 'replayed'; entry: CreditTransaction; /** What the entry is about (LedgerDraft.ref). */ ref?: string }
  | { outcome: 'insufficient'; available: number };

const SIGNUP_ENTRY_ID = 'grant#signup';
const MAX_ATTEMPTS = 200;

const toProfile = ({ ledger_seq: _seq, ...profile }: ProfileItem): Profile => profile;
const toTransaction = ({ seq: _seq, ref: _ref, ...entry }: LedgerItem): CreditTransaction => entry;

export async function getProfile(userId: string): Promise<Profile | undefined> {
  const item = await getProfileItem(userId);
  return item && toProfile(item);
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
export async function createProfile(userId: string, email: string, now: string): Promise<Profile> {
  const profile: ProfileItem = {
    id: userId,
    email,
    created_at: now,
    last_login: now,
    current_credits: SIGNUP_CREDITS,
    plan_id: DEFAULT_PLAN_ID,
    total_credits_spent: 0,
    ledger_seq: 1,
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
    return toProfile(profile);
  } catch (error) {
    if (!cancellationCodes(error)) throw error;
    // Another call created it first (or is committing it right now): read what it stored.
    for (let attempt = 0; attempt < 20; attempt++) {
      const existing = await getProfileItem(userId);
      if (existing) return toProfile(existing);
      await backoff(attempt);
    }
    throw error;
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

/**
 * Applies one ledger entry to the balance, exactly once. A debit that would take the balance below zero is not
 * applied. An entry whose id already exists is a replay: nothing changes and the stored entry is returned.
 */
export async function applyLedgerEntry(userId: string, draft: LedgerDraft, now: () => string): Promise<ApplyResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const profile = await getProfileItem(userId);
    if (!profile) throw new Error(`No profile for user ${userId}`);
    const balanceAfter = profile.current_credits + draft.amount;
    if (balanceAfter < 0) {
      const existing = await getLedgerItem(userId, draft.id);
      return existing ? replay(existing, draft) : { outcome: 'insufficient', available: profile.current_credits };
    }
    const entry: LedgerItem = {
      user_id: userId,
      id: draft.id,
      seq: profile.ledger_seq + 1,
      description: draft.description,
      transaction_type: draft.transaction_type,
      amount: draft.amount,
      balance_after: balanceAfter,
      created_at: now(),
      ...(draft.ref ? { ref: draft.ref } : {}),
      ...(draft.payment ? { payment: draft.payment } : {}),
    };
    try {
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('profiles'),
                Key: { id: userId },
                UpdateExpression: 'SET current_credits = :balance, ledger_seq = :seq, total_credits_spent = :spent',
                ConditionExpression: 'ledger_seq = :previousSeq AND current_credits = :previousBalance',
                ExpressionAttributeValues: {
                  ':balance': balanceAfter,
                  ':seq': entry.seq,
                  ':spent': profile.total_credits_spent + spentDelta(draft),
                  ':previousSeq': profile.ledger_seq,
                  ':previousBalance': profile.current_credits,
                },
              },
            },
            { Put: { TableName: tableName('ledger'), Item: entry, ConditionExpression: 'attribute_not_exists(id)' } },
          ],
        }),
      );
      return { outcome: 'applied', entry: toTransaction(entry), ref: entry.ref };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (codes[1] === 'ConditionalCheckFailed') {
        const existing = await getLedgerItem(userId, draft.id);
        if (existing) return replay(existing, draft);
      }
      // Another entry moved the balance first (or the transactions collided): read again and retry.
      await backoff(attempt);
    }
  }
  throw new Error(`Ledger entry ${draft.id} not applied after ${MAX_ATTEMPTS} attempts`);
}

/** Debits count as spent, refunds give it back; purchases and grants don't change it. */
function spentDelta(draft: LedgerDraft): number {
  return draft.transaction_type === 'debit' || draft.transaction_type === 'refund' ? -draft.amount : 0;
}

function replay(existing: LedgerItem, draft: LedgerDraft): ApplyResult {
  if (existing.amount !== draft.amount || existing.transaction_type !== draft.transaction_type) {
    throw new IdempotencyMismatchError(draft.id);
  }
  return { outcome: 'replayed', entry: toTransaction(existing), ref: existing.ref };
}

export class IdempotencyMismatchError extends Error {
  constructor(readonly entryId: string) {
    super(`Ledger entry ${entryId} exists with a different amount`);
  }
}

export async function getLedgerEntry(userId: string, id: string): Promise<CreditTransaction | undefined> {
  const item = await getLedgerItem(userId, id);
  return item && toTransaction(item);
}

async function getLedgerItem(userId: string, id: string): Promise<LedgerItem | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('ledger'), Key: { user_id: userId, id }, ConsistentRead: true }),
  );
  return Item as LedgerItem | undefined;
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

/** Every entry of the user, oldest first: for audits of the invariant. */
export async function listWholeLedger(userId: string): Promise<CreditTransaction[]> {
  const entries: CreditTransaction[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName('ledger'),
        IndexName: 'by_seq',
        KeyConditionExpression: 'user_id = :user',
        ExpressionAttributeValues: { ':user': userId },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    entries.push(...((page.Items ?? []) as LedgerItem[]).map(toTransaction));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return entries;
}

/** Full jitter, growing from 5 ms to at most 80 ms: enough to let a burst of writers on one profile through. */
function backoff(attempt: number): Promise<void> {
  const cap = Math.min(80, 5 * 2 ** Math.min(attempt, 4));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
}
