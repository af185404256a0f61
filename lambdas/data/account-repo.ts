// DynamoDB access for deleting an account and exporting its data: the walk over ACCOUNT_DELETION (tables.ts), the
// move of the ledger to the account's tombstone id, and whole-partition reads for "Download my data".
//
// The ledger is kept for accounting, anonymised: each entry moves to the tombstone id (a random id that names no
// one) in transactions that also move the entries' amounts from the user's profile to a tombstone profile, so at
// every committed step both satisfy the ledger invariant (balance = sum of entries) and the reconciler's audit holds.
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerItem } from './credits-repo.js';
import { batchWriteAll, dynamo, queryAll } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';
import { ACCOUNT_DELETING, ACCOUNT_DELETION, TABLES, tableName, type TableName } from './tables.js';

/** Tables the deletion walks in order (the ledger is anonymised before, the profile deleted last). */
const DELETED_TABLES = (Object.keys(ACCOUNT_DELETION) as TableName[])
  .filter((table) => ['partition', 'index'].includes(ACCOUNT_DELETION[table].action))
  .concat((Object.keys(ACCOUNT_DELETION) as TableName[]).filter((table) => ACCOUNT_DELETION[table].action === 'key'));

/**
 * Marks the profile as being deleted and answers the account's tombstone id: the one already chosen when the
 * deletion was asked before (a retried request), a new one otherwise.
 */
export async function markAccountDeleting(userId: string, now: string): Promise<string> {
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName('profiles'),
      Key: { id: userId },
      // Written with or without a profile (an account that never read its profile has none yet): the mark is what
      // the caller gate refuses by, so it must exist from this moment on.
      UpdateExpression:
        'SET deletion_tombstone = if_not_exists(deletion_tombstone, :tombstone), deletion_requested_at = if_not_exists(deletion_requested_at, :now), deleting = :deleting',
      ExpressionAttributeValues: { ':tombstone': `deleted-${randomUUID()}`, ':now': now, ':deleting': ACCOUNT_DELETING },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return String(Attributes!.deletion_tombstone);
}

/** What the caller gate needs to know of a caller: whether the account is being deleted or deleted, and the key's state. */
export interface CallerStanding {
  accountDeleted: boolean;
  /** Only when a key id was asked about: 'missing' once the account's deletion removed it. */
  key?: 'active' | 'revoked' | 'missing';
}

/**
 * One strongly consistent BatchGetItem: the profile's deletion marks and, for a call made with an API key, the key's
 * revoked_at. A mark or a revoke that has answered is seen by every request after it, whatever any cache holds.
 */
export async function readCallerStanding(userId: string, keyId?: string): Promise<CallerStanding> {
  const profiles = tableName('profiles');
  // Only a public-API route is granted the keys table (routeTables): the name is resolved only for a call with a key.
  const apiKeys = keyId ? tableName('apiKeys') : undefined;
  const request: Record<string, { Keys: Record<string, string>[]; ConsistentRead: true; ProjectionExpression: string }> = {
    [profiles]: { Keys: [{ id: userId }], ConsistentRead: true, ProjectionExpression: 'id, deleting, deletion_requested_at, deleted_at' },
  };
  if (apiKeys) request[apiKeys] = { Keys: [{ user_id: userId, id: keyId! }], ConsistentRead: true, ProjectionExpression: 'id, revoked_at' };
  const found: Record<string, Record<string, unknown>[]> = {};
  let pending: typeof request | undefined = request;
  for (let attempt = 0; pending && Object.keys(pending).length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(500, 25 * 2 ** attempt)));
    const answer = await dynamo.send(new BatchGetCommand({ RequestItems: pending }));
    for (const [table, items] of Object.entries(answer.Responses ?? {})) (found[table] ??= []).push(...(items as Record<string, unknown>[]));
    pending = answer.UnprocessedKeys as typeof request | undefined;
  }
  const profile = found[profiles]?.[0];
  const accountDeleted = profile !== undefined && ['deleting', 'deletion_requested_at', 'deleted_at'].some((name) => profile[name] !== undefined);
  if (!apiKeys) return { accountDeleted };
  const key = found[apiKeys]?.[0];
  return { accountDeleted, key: !key ? 'missing' : key.revoked_at ? 'revoked' : 'active' };
}

/** Transactions hold at most 100 items: 48 entries moved (put + delete each), the two profiles and headroom. */
const LEDGER_CHUNK = 48;

/**
 * Moves up to one chunk of the user's ledger to the tombstone id; `more` while entries remain. The user's profile
 * gives the chunk's amounts to the tombstone profile in the same transaction (conditional on its ledger_seq, so a
 * balance change racing it makes the step retry). The payment records of moved purchases name the tombstone too.
 */
export async function anonymiseLedgerChunk(userId: string, tombstoneId: string, deletedAt: string): Promise<{ moved: number; more: boolean }> {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName('ledger'),
      KeyConditionExpression: 'user_id = :user',
      ExpressionAttributeValues: { ':user': userId },
      ConsistentRead: true,
      Limit: LEDGER_CHUNK,
    }),
  );
  const entries = (page.Items ?? []) as LedgerItem[];
  if (entries.length === 0) return { moved: 0, more: false };
  const { Attributes: profile } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName('profiles'),
      Key: { id: userId },
      // A no-op update that reads the profile consistently (or nothing, when there is none).
      UpdateExpression: 'SET deletion_tombstone = if_not_exists(deletion_tombstone, :tombstone)',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':tombstone': tombstoneId },
      ReturnValues: 'ALL_NEW',
    }),
  ).catch((error: unknown) => {
    if (isConditionFailed(error)) return { Attributes: undefined };
    throw error;
  });
  const sum = entries.reduce((total, entry) => total + entry.amount, 0);
  const spent = entries.filter((entry) => entry.transaction_type === 'debit').reduce((total, entry) => total - entry.amount, 0);
  const ledgerSeq = Math.max(...entries.map((entry) => entry.seq), Number(profile?.ledger_seq ?? 0));
  // First, so a step cut after the move cannot leave them naming the user (they are conditional: safe to redo).
  await Promise.all(entries.map((entry) => renamePaymentRecords(entry, userId, tombstoneId)));
  await dynamo.send(
    new TransactWriteCommand({
      TransactItems: [
        ...entries.flatMap((entry) => [
          { Put: { TableName: tableName('ledger'), Item: { ...entry, user_id: tombstoneId } } },
          { Delete: { TableName: tableName('ledger'), Key: { user_id: userId, id: entry.id } } },
        ]),
        ...(profile
          ? [
              {
                Update: {
                  TableName: tableName('profiles'),
                  Key: { id: userId },
                  UpdateExpression: 'SET current_credits = current_credits - :sum',
                  ConditionExpression: 'ledger_seq = :seq',
                  ExpressionAttributeValues: { ':sum': sum, ':seq': profile.ledger_seq },
                },
              },
            ]
          : []),
        {
          Update: {
            TableName: tableName('profiles'),
            Key: { id: tombstoneId },
            // The tombstone: no e-mail, no name; the balance and the spend its ledger adds up to.
            UpdateExpression:
              'SET current_credits = if_not_exists(current_credits, :zero) + :sum, total_credits_spent = if_not_exists(total_credits_spent, :zero) + :spent, ledger_seq = :ledgerSeq, email = :none, plan_id = :plan, created_at = if_not_exists(created_at, :at), last_login = :at, deleted_at = :at',
            ExpressionAttributeValues: { ':zero': 0, ':sum': sum, ':spent': spent, ':ledgerSeq': ledgerSeq, ':none': '', ':plan': 'deleted', ':at': deletedAt },
          },
        },
      ],
    }),
  );
  return { moved: entries.length, more: page.LastEvaluatedKey !== undefined };
}

/** The payments table's records of a card purchase (`pi#…`, `refund#…`) name the tombstone instead of the user. */
async function renamePaymentRecords(entry: LedgerItem, userId: string, tombstoneId: string): Promise<void> {
  const ids = [entry.payment?.payment_intent_id && `pi#${entry.payment.payment_intent_id}`, entry.payment?.checkout_session_id && `refund#${entry.payment.checkout_session_id}`];
  for (const id of ids) {
    if (!id) continue;
    await dynamo
      .send(
        new UpdateCommand({
          TableName: tableName('payments'),
          Key: { id },
          UpdateExpression: 'SET user_id = :tombstone',
          ConditionExpression: 'user_id = :user',
          ExpressionAttributeValues: { ':tombstone': tombstoneId, ':user': userId },
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailed(error)) throw error;
      });
  }
}

/**
 * Deletes the user's items table by table (ACCOUNT_DELETION), until `deadline` (epoch ms); `more` when time ran out
 * first. Safe to run again: what is gone stays gone.
 */
export async function deleteUserRecords(userId: string, deadline: number): Promise<{ deleted: number; more: boolean }> {
  let deleted = 0;
  for (const table of DELETED_TABLES) {
    const rule = ACCOUNT_DELETION[table] as (typeof ACCOUNT_DELETION)[TableName];
    if (rule.action === 'key') {
      await dynamo.send(new PutCommand({ TableName: tableName(table), Item: { [TABLES[table].partitionKey.name]: userId, deleted_at: new Date().toISOString() } }));
      deleted += 1;
      continue;
    }
    for (;;) {
      if (Date.now() > deadline) return { deleted, more: true };
      const keys = await userKeys(table, userId);
      if (keys.length === 0) break;
      await deleteKeys(table, keys);
      deleted += keys.length;
    }
  }
  return { deleted, more: false };
}

/** One page of the table keys of the user's items in a table deleted by partition or by index. */
async function userKeys(table: TableName, userId: string): Promise<Record<string, unknown>[]> {
  const definition = TABLES[table];
  const keyNames = [definition.partitionKey.name, ...('sortKey' in definition ? [definition.sortKey.name] : [])];
  const rule = ACCOUNT_DELETION[table] as (typeof ACCOUNT_DELETION)[TableName];
  const input: QueryCommandInput =
    rule.action === 'index'
      ? { TableName: tableName(table), IndexName: rule.index, KeyConditionExpression: '#user = :user', ExpressionAttributeNames: { '#user': rule.attribute }, ExpressionAttributeValues: { ':user': userId } }
      : { TableName: tableName(table), KeyConditionExpression: '#user = :user', ExpressionAttributeNames: { '#user': definition.partitionKey.name }, ExpressionAttributeValues: { ':user': userId }, ConsistentRead: true };
  const page = await dynamo.send(new QueryCommand({ ...input, Limit: 100 }));
  return (page.Items ?? []).map((item) => Object.fromEntries(keyNames.map((name) => [name, item[name]])));
}

async function deleteKeys(table: TableName, keys: Record<string, unknown>[]): Promise<void> {
  await batchWriteAll(tableName(table), keys.map((Key) => ({ DeleteRequest: { Key } })));
}

/** Every item of the user's partition in a table (for "Download my data"). */
export async function listUserPartition<T>(table: TableName, userId: string): Promise<T[]> {
  return queryAll<T>({
    TableName: tableName(table),
    KeyConditionExpression: '#user = :user',
    ExpressionAttributeNames: { '#user': TABLES[table].partitionKey.name },
    ExpressionAttributeValues: { ':user': userId },
  });
}
