// DynamoDB access for payment bookkeeping (the payments table) and the purchase entries of the ledger.
// The ledger itself only changes through domain/credits.ts; nothing here moves a balance.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CreditTransaction } from '../contracts/api.js';
import { dynamo, queryAll } from './dynamo.js';
import { tableName } from './tables.js';
import type { LedgerReservation } from './credits-repo.js';

const DAY_SECONDS = 86_400;

/** The user and Checkout Session a Stripe payment intent belongs to, written when its purchase is granted. */
export interface PaymentIntentOwner {
  userId: string;
  sessionId: string;
}

export async function rememberPaymentIntent(paymentIntentId: string, owner: PaymentIntentOwner): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName('payments'),
      Item: { id: `pi#${paymentIntentId}`, user_id: owner.userId, session_id: owner.sessionId },
    }),
  );
}

export async function findPaymentIntentOwner(paymentIntentId: string): Promise<PaymentIntentOwner | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('payments'), Key: { id: `pi#${paymentIntentId}` }, ConsistentRead: true }),
  );
  return Item ? { userId: String(Item.user_id), sessionId: String(Item.session_id) } : undefined;
}

/** A Stripe event acknowledged without granting anything, kept for the operator with the reason. */
export async function recordIgnoredEvent(event: { id: string; type: string; reason: string; detail?: Record<string, unknown> }): Promise<void> {
  await dynamo.send(
    new PutCommand({
      TableName: tableName('payments'),
      Item: { id: `event#${event.id}`, event_type: event.type, reason: event.reason, detail: event.detail ?? {}, recorded_at: new Date().toISOString() },
    }),
  );
}

export async function getIgnoredEvent(eventId: string): Promise<{ event_type: string; reason: string } | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName('payments'), Key: { id: `event#${eventId}` }, ConsistentRead: true }));
  return Item as { event_type: string; reason: string } | undefined;
}

/**
 * The refund of a purchase as we know it: Stripe's refund id and status once known, and whether a call to create it was
 * made before (so a later request first asks Stripe whether that call went through: its idempotency key lasts 24 h).
 */
export interface RefundRecord {
  status: string;
  refundId?: string;
  /** A create call was sent and its answer never arrived. */
  askedBefore: boolean;
}

const refundKey = (sessionId: string) => ({ id: `refund#${sessionId}` });

/**
 * Records what is known of a purchase's refund by updating its record, never replacing it: a refund id, once known, is
 * kept (an event without one leaves it), and 'pending' never covers a status Stripe already reported.
 */
export async function recordRefund(sessionId: string, state: { userId: string; status: string; refundId?: string }): Promise<void> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':user': state.userId, ':status': state.status, ':now': new Date().toISOString() };
  const sets = ['user_id = :user', 'updated_at = :now', state.status === 'pending' ? '#status = if_not_exists(#status, :status)' : '#status = :status'];
  if (state.refundId) {
    sets.push('refund_id = if_not_exists(refund_id, :refund)');
    values[':refund'] = state.refundId;
  }
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName('payments'),
      Key: refundKey(sessionId),
      UpdateExpression: `SET ${sets.join(', ')} REMOVE claimed_until`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

export async function getRefundRecord(sessionId: string): Promise<RefundRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName('payments'), Key: refundKey(sessionId), ConsistentRead: true }));
  if (!Item) return undefined;
  return { status: String(Item.status ?? 'pending'), refundId: Item.refund_id as string | undefined, askedBefore: Item.asked_before === true };
}

/**
 * Claims the one call to Stripe that creates a purchase's refund, for `holdMs` (longer than the call may take). Only
 * the holder calls Stripe; a request that finds it held waits for the holder's answer. A claim left by a call that
 * died lapses after `holdMs`.
 */
export async function claimRefundCall(sessionId: string, userId: string, holdMs: number, now = new Date()): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('payments'),
        Key: refundKey(sessionId),
        UpdateExpression: 'SET user_id = :user, claimed_until = :until, #status = if_not_exists(#status, :pending), updated_at = :now',
        ConditionExpression: 'attribute_not_exists(refund_id) AND (attribute_not_exists(claimed_until) OR claimed_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':user': userId, ':until': new Date(now.getTime() + holdMs).toISOString(), ':now': now.toISOString(), ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The claimed call ended without an answer from Stripe: the claim is released, and the record says a call was made. */
export async function releaseRefundCall(sessionId: string): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName('payments'),
      Key: refundKey(sessionId),
      UpdateExpression: 'SET asked_before = :yes, updated_at = :now REMOVE claimed_until',
      ExpressionAttributeValues: { ':yes': true, ':now': new Date().toISOString() },
    }),
  );
}

/**
 * The reservation of `credits` against the user's test-payment allowance of the day, taken in the grant's own
 * transaction (the grant is not applied when it would pass `limit`), so neither concurrent grants nor replays of one
 * grant can move the allowance past what was granted.
 */
export function testGrantReservation(userId: string, credits: number, limit: number, now = new Date()): LedgerReservation {
  return {
    Update: {
      TableName: tableName('payments'),
      Key: testGrantsKey(userId, now),
      UpdateExpression: 'ADD credits :credits SET expires_at = if_not_exists(expires_at, :expires)',
      ConditionExpression: 'attribute_not_exists(credits) OR credits <= :room',
      ExpressionAttributeValues: {
        ':credits': credits,
        ':room': limit - credits,
        ':expires': Math.floor(now.getTime() / 1000) + 2 * DAY_SECONDS,
      },
      // A refusal names what is left of the day's allowance: the counter as it stood comes back with it.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

const testGrantsKey = (userId: string, now: Date) => ({ id: `test-grants#${userId}#${now.toISOString().slice(0, 10)}` });

/** The credits of a test-grant counter (a reservation's `held` item, or the stored one); 0 for none. */
export const testGrantsOf = (counter: Record<string, unknown> | undefined): number => (typeof counter?.credits === 'number' ? counter.credits : 0);

/** The credits the user's test payments granted today (UTC), as stored: only what a refusal tells the buyer. */
export async function testGrantsToday(userId: string, now = new Date()): Promise<number> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName('payments'), Key: testGrantsKey(userId, now) }));
  return testGrantsOf(Item);
}

/** The user's ledger entries whose id starts with `prefix` (e.g. every purchase), oldest id first. */
export async function listLedgerEntriesByPrefix(userId: string, prefix: string): Promise<CreditTransaction[]> {
  const items = await queryAll<CreditTransaction & { seq?: number; ref?: string }>({
    TableName: tableName('ledger'),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    ExpressionAttributeValues: { ':user': userId, ':prefix': prefix },
  });
  return items.map(({ seq: _seq, ref: _ref, ...entry }) => entry);
}
