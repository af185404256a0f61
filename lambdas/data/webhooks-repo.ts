// All DynamoDB access for outgoing webhooks. One table, partitioned by user: endpoints under `we_<id>` and delivery
// attempts under `att#<ISO time>#<random>`, so "the newest attempts" is one Query on the user's partition. Adding and
// deleting an endpoint move the user's `#endpoints` counter in the same transaction, so the cap on endpoints holds
// under concurrent requests.
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEventType } from '../contracts/webhooks.js';
import { dynamo, transactWrite } from './dynamo.js';
import { cancellationCodes } from './dynamo-errors.js';
import { tableName } from './tables.js';

const table = () => tableName('webhooks');
export const ENDPOINT_PREFIX = 'we_';
const ATTEMPT_PREFIX = 'att#';
/** Attempts are kept a week (DynamoDB TTL); the screen shows only the newest. */
const ATTEMPT_TTL_SECONDS = 7 * 24 * 3600;

export interface WebhookEndpointRecord {
  user_id: string;
  id: string;
  url: string;
  events: WebhookEventType[];
  /** `whsec_…`: needed in clear to sign; never answered after creation. */
  secret: string;
  created_at: string;
  disabled_at?: string;
}

export interface WebhookAttemptRecord {
  user_id: string;
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  attempt: number;
  status_code?: number;
  error?: string;
  ok: boolean;
  created_at: string;
  expires_at: number;
}

export const newEndpointId = () => `${ENDPOINT_PREFIX}${randomBytes(9).toString('base64url')}`;
const COUNTER_ID = '#endpoints';

/** Stores a new endpoint unless the user already has `maxEndpoints`; false (nothing written) at the cap. */
export async function putEndpoint(record: WebhookEndpointRecord, maxEndpoints: number): Promise<boolean> {
  try {
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: table(),
            Key: { user_id: record.user_id, id: COUNTER_ID },
            UpdateExpression: 'ADD endpoints :one',
            ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': maxEndpoints },
          },
        },
        { Put: { TableName: table(), Item: record, ConditionExpression: 'attribute_not_exists(id)' } },
      ],
    });
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

export async function listEndpoints(userId: string): Promise<WebhookEndpointRecord[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
      ExpressionAttributeValues: { ':user': userId, ':prefix': ENDPOINT_PREFIX },
      ConsistentRead: true,
    }),
  );
  return Items as WebhookEndpointRecord[];
}

export async function getEndpoint(userId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
  if (!id.startsWith(ENDPOINT_PREFIX)) return undefined;
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item as WebhookEndpointRecord | undefined;
}

/** Deletes the endpoint and frees its place under the cap; true when it existed. */
export async function deleteEndpoint(userId: string, id: string): Promise<boolean> {
  if (!id.startsWith(ENDPOINT_PREFIX)) return false;
  try {
    await transactWrite({
      TransactItems: [
        { Delete: { TableName: table(), Key: { user_id: userId, id }, ConditionExpression: 'attribute_exists(id)' } },
        {
          Update: {
            TableName: table(),
            Key: { user_id: userId, id: COUNTER_ID },
            UpdateExpression: 'ADD endpoints :minus',
            ConditionExpression: 'endpoints > :zero',
            ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
          },
        },
      ],
    });
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/** The receiver answered 410 Gone: the endpoint stays listed, marked disabled, and receives nothing more. */
export async function disableEndpoint(userId: string, id: string, at = new Date().toISOString()): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET disabled_at = :at',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(disabled_at)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

export async function recordAttempt(attempt: Omit<WebhookAttemptRecord, 'id' | 'expires_at' | 'created_at'>, now = new Date()): Promise<WebhookAttemptRecord> {
  const record: WebhookAttemptRecord = {
    ...attempt,
    id: `${ATTEMPT_PREFIX}${now.toISOString()}#${randomBytes(6).toString('hex')}`,
    created_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + ATTEMPT_TTL_SECONDS,
  };
  await dynamo.send(new PutCommand({ TableName: table(), Item: record }));
  return record;
}

/** The newest attempts first. */
export async function listAttempts(userId: string, limit: number): Promise<WebhookAttemptRecord[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
      ExpressionAttributeValues: { ':user': userId, ':prefix': ATTEMPT_PREFIX },
      ScanIndexForward: false,
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return Items as WebhookAttemptRecord[];
}
