// All DynamoDB access for per-user limits. Request counters: one item per (user, limit, window), counted up by one
// conditional update, so a request is let through or refused in a single round trip and counters of many
// concurrent requests never lose a count. Items expire (TTL) once their window is long over. Running work: below.
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LedgerReservation } from './credits-repo.js';
import { tableName } from './tables.js';
import { dynamo } from './dynamo.js';
import { cancellationCodes, isConditionFailed } from './dynamo-errors.js';
import { jitter, sleep } from '../core/backoff.js';

/** Counts one request in the window; false when the window already holds `limit` requests (nothing counted). */
export async function countRequest(counterId: string, limit: number, windowEndsAt: number): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('limits'),
        Key: { id: counterId },
        UpdateExpression: 'ADD requests :one SET expires_at = if_not_exists(expires_at, :expires)',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil(windowEndsAt / 1000) + 3600 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

// ——— Running work: one item per user and kind of work, `running#<user>#<kind>`, whose `holders` set names each piece
// of work still running (the record id). A charge adds its record to the set in the charge's own transaction, on the
// condition that the set is below the cap; the end of the work deletes it. Deleting a member is idempotent, so every
// path that ends a piece of work may release it, and it is released once whichever comes first.

const runningCounterId = (userId: string, kind: string) => `running#${userId}#${kind}`;

/** The reservation of one running piece of work, taken in its charge's transaction (credits-repo's LedgerReservation). */
export function runningReservation(userId: string, kind: string, holder: string, max: number): LedgerReservation {
  return {
    Update: {
      TableName: tableName('limits'),
      Key: { id: runningCounterId(userId, kind) },
      UpdateExpression: 'ADD holders :holder',
      ConditionExpression: 'attribute_not_exists(holders) OR size(holders) < :max',
      ExpressionAttributeValues: { ':holder': new Set([holder]), ':max': max },
    },
  };
}

/** Frees the place `holder` took; true when it held one (false: released before, or never reserved). */
export async function releaseRunning(userId: string, kind: string, holder: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName('limits'),
          Key: { id: runningCounterId(userId, kind) },
          UpdateExpression: 'DELETE holders :holder',
          ConditionExpression: 'contains(holders, :id)',
          ExpressionAttributeValues: { ':holder': new Set([holder]), ':id': holder },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailed(error)) return false;
      // A charge of the same user taking a place in its transaction right now: nothing was written, try again.
      if ((error as Error).name !== 'TransactionConflictException' || attempt >= 10) throw error;
      await sleep(jitter(attempt + 1));
    }
  }
}

/** The work of this kind the user holds places for (the record ids), as stored now. */
export async function listRunning(userId: string, kind: string): Promise<string[]> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('limits'), Key: { id: runningCounterId(userId, kind) }, ConsistentRead: true }),
  );
  return [...((Item?.holders as Set<string> | undefined) ?? [])];
}

// ——— Exclusive work with a daily allowance (an account export): one transaction counts the request in its window and
// takes the user's one lease, `lease#<user>#<kind>`, on the condition that the window is below its limit and that no
// other lease is held or the one held has run out. A lease ends when its work gives it back, or on its own at
// `lease_until` (longer than the work's timeout), so a release lost to a killed function never blocks the user.

const leaseId = (userId: string, kind: string) => `lease#${userId}#${kind}`;

export type LeaseOutcome = 'taken' | 'rate-limited' | 'busy';

/** Counts one request in the window and takes the lease for `holder`, both or neither. */
export async function takeLease(
  userId: string,
  kind: string,
  holder: string,
  counter: { id: string; limit: number; windowEndsAt: number },
  leaseSeconds: number,
  now = Date.now(),
): Promise<LeaseOutcome> {
  const nowSeconds = Math.floor(now / 1000);
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('limits'),
              Key: { id: counter.id },
              UpdateExpression: 'ADD requests :one SET expires_at = if_not_exists(expires_at, :expires)',
              ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
              ExpressionAttributeValues: { ':one': 1, ':limit': counter.limit, ':expires': Math.ceil(counter.windowEndsAt / 1000) + 3600 },
            },
          },
          {
            Update: {
              TableName: tableName('limits'),
              Key: { id: leaseId(userId, kind) },
              UpdateExpression: 'SET holder = :holder, lease_until = :until, expires_at = :expires',
              ConditionExpression: 'attribute_not_exists(lease_until) OR lease_until < :now',
              ExpressionAttributeValues: { ':holder': holder, ':until': nowSeconds + leaseSeconds, ':now': nowSeconds, ':expires': nowSeconds + leaseSeconds + 3600 },
            },
          },
        ],
      }),
    );
    return 'taken';
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (codes[0] === 'ConditionalCheckFailed') return 'rate-limited';
    if (codes[1] === 'ConditionalCheckFailed') return 'busy';
    throw error;
  }
}

/** Gives back the lease `holder` took (nothing when it ran out and another holder has it since). */
export async function releaseLease(userId: string, kind: string, holder: string): Promise<void> {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName('limits'),
        Key: { id: leaseId(userId, kind) },
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
