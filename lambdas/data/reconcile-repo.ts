// The reads the reconciler needs, none of them a table scan: work still in flight through the sparse in_flight index
// of generations and jobs, accounts being deleted through the profiles' sparse deleting index, and the users whose
// ledger moved in a time window through the ledger's by_type_time index.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TRANSACTION_TYPES } from '../contracts/api.js';
import { tableName } from './tables.js';
import { dynamo, queryAll } from './dynamo.js';
import { ACCOUNT_DELETING, ACCOUNT_DELETING_INDEX, IN_FLIGHT_INDEX, type TableName } from './tables.js';

export interface InFlightKey {
  user_id: string;
  id: string;
  created_at: string;
}

/** Rows of `table` marked in flight as `kind` and created before `before` (ISO time), oldest first. */
export async function listInFlight(table: TableName, kind: string, before: string): Promise<InFlightKey[]> {
  return queryAll<InFlightKey>({
    TableName: tableName(table),
    IndexName: IN_FLIGHT_INDEX.name,
    KeyConditionExpression: 'in_flight = :kind AND created_at < :before',
    ExpressionAttributeValues: { ':kind': kind, ':before': before },
  });
}

/** The ids of the accounts whose deletion was asked before `before` (ISO time) and has not finished, oldest first. */
export async function listAccountsDeleting(before: string): Promise<string[]> {
  const keys = await queryAll<{ id: string }>({
    TableName: tableName('profiles'),
    IndexName: ACCOUNT_DELETING_INDEX.name,
    KeyConditionExpression: 'deleting = :deleting AND deletion_requested_at < :before',
    ExpressionAttributeValues: { ':deleting': ACCOUNT_DELETING, ':before': before },
  });
  return keys.map((key) => key.id);
}

/** The tombstone id of an account whose deletion has not finished (read from the profile itself), else undefined. */
export async function unfinishedDeletion(userId: string): Promise<string | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('profiles'), Key: { id: userId }, ConsistentRead: true, ProjectionExpression: 'deleting, deletion_tombstone' }),
  );
  return Item?.deleting === ACCOUNT_DELETING && typeof Item.deletion_tombstone === 'string' ? Item.deletion_tombstone : undefined;
}

/** The keys of the ledger entries of one type created in a time range, through the keys-only by_type_time index. */
async function entryKeysByTime(type: string, range: { since: string; until?: string }): Promise<{ user_id: string; id: string }[]> {
  const keys = await queryAll<{ user_id: string; id: string }>({
    TableName: tableName('ledger'),
    IndexName: 'by_type_time',
    KeyConditionExpression: range.until ? 'transaction_type = :type AND created_at BETWEEN :since AND :until' : 'transaction_type = :type AND created_at >= :since',
    ExpressionAttributeValues: { ':type': type, ':since': range.since, ...(range.until ? { ':until': range.until } : {}) },
  });
  return keys.map((key) => ({ user_id: String(key.user_id), id: String(key.id) }));
}

/** The ids of the users with a ledger entry created at or after `since` (ISO time). */
export async function listUsersWithLedgerEntriesSince(since: string): Promise<string[]> {
  const users = new Set<string>();
  for (const type of TRANSACTION_TYPES) for (const key of await entryKeysByTime(type, { since })) users.add(key.user_id);
  return [...users];
}

/** The keys of the debits created in [since, until] (ISO times). */
export function listDebitKeysBetween(since: string, until: string): Promise<{ user_id: string; id: string }[]> {
  return entryKeysByTime('debit', { since, until });
}
