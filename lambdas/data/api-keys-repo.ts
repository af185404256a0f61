// All DynamoDB access for API keys. A key item holds only the peppered hash of its secret. Creating and revoking a
// key move the user's `#active` counter in the same transaction, so the cap on active keys holds under concurrent
// requests; the authorizer finds a key by its hash (by_hash) and records its use at most once a minute.
import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, queryAll } from './dynamo.js';
import { cancellationCodes, isConditionFailed } from './dynamo-errors.js';
import { newId } from './ids.js';
import { tableName } from './tables.js';

const COUNTER_ID = '#active';
const KEY_ID_PREFIX = 'key_';

export interface ApiKeyRecord {
  user_id: string;
  id: string;
  key_hash: string;
  name: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at?: string;
  revoked_at?: string;
}

export type CreateKeyOutcome = { created: ApiKeyRecord } | { limitReached: true };

/** Stores a new key unless the user already has `maxActive` active ones. */
export async function putApiKey(
  input: Pick<ApiKeyRecord, 'user_id' | 'key_hash' | 'name' | 'prefix' | 'last4'>,
  maxActive: number,
  now = new Date(),
): Promise<CreateKeyOutcome> {
  const record: ApiKeyRecord = { ...input, id: `${KEY_ID_PREFIX}${newId(now.getTime())}`, created_at: now.toISOString() };
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('apiKeys'),
              Key: { user_id: input.user_id, id: COUNTER_ID },
              UpdateExpression: 'ADD active :one',
              ConditionExpression: 'attribute_not_exists(active) OR active < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': maxActive },
            },
          },
          { Put: { TableName: tableName('apiKeys'), Item: record, ConditionExpression: 'attribute_not_exists(id)' } },
        ],
      }),
    );
    return { created: record };
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return { limitReached: true };
    throw error;
  }
}

/** The user's keys, oldest first (never the counter). */
export async function listApiKeys(userId: string): Promise<ApiKeyRecord[]> {
  return queryAll<ApiKeyRecord>({
    TableName: tableName('apiKeys'),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    ExpressionAttributeValues: { ':user': userId, ':prefix': KEY_ID_PREFIX },
  });
}

export type RevokeOutcome = 'revoked' | 'already-revoked' | 'not-found';

/** Marks the caller's key revoked and frees its place under the cap; a key of another user is 'not-found'. */
export async function revokeApiKey(userId: string, keyId: string, now = new Date()): Promise<RevokeOutcome> {
  if (!keyId.startsWith(KEY_ID_PREFIX)) return 'not-found';
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('apiKeys'),
              Key: { user_id: userId, id: keyId },
              UpdateExpression: 'SET revoked_at = :now',
              ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(revoked_at)',
              ExpressionAttributeValues: { ':now': now.toISOString() },
            },
          },
          {
            Update: {
              TableName: tableName('apiKeys'),
              Key: { user_id: userId, id: COUNTER_ID },
              UpdateExpression: 'ADD active :minus',
              ConditionExpression: 'active > :zero',
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return 'revoked';
  } catch (error) {
    if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
    const existing = (await listApiKeys(userId)).find((key) => key.id === keyId);
    return existing ? 'already-revoked' : 'not-found';
  }
}

/** The key with this hash, if any (revoked ones too: the caller decides). */
export async function findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName('apiKeys'),
      IndexName: 'by_hash',
      KeyConditionExpression: 'key_hash = :hash',
      ExpressionAttributeValues: { ':hash': keyHash },
      Limit: 1,
    }),
  );
  return page.Items?.[0] as ApiKeyRecord | undefined;
}

/** Records a use unless one was recorded in the last `resolutionSeconds` (one conditional write, never a read). */
export async function touchApiKey(userId: string, keyId: string, resolutionSeconds: number, now = new Date()): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('apiKeys'),
        Key: { user_id: userId, id: keyId },
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(id) AND (attribute_not_exists(last_used_at) OR last_used_at < :since)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':since': new Date(now.getTime() - resolutionSeconds * 1000).toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
