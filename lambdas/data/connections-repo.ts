// All DynamoDB access for WebSocket connections: one item per open connection, found by user through the by_user
// index. An item outlives its connection by a few minutes at most: API Gateway closes every connection after 2 hours,
// and the TTL removes what a lost $disconnect left behind.
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './tables.js';
import { dynamo, queryAll } from './dynamo.js';

export interface ConnectionItem {
  connection_id: string;
  user_id: string;
  connected_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  expires_at: number;
}

/** API Gateway's maximum connection duration (2 hours) plus a margin for a $disconnect that never arrives. */
export const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 5 * 60;

export function connectionItem(connectionId: string, userId: string, now = new Date()): ConnectionItem {
  return {
    connection_id: connectionId,
    user_id: userId,
    connected_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + CONNECTION_TTL_SECONDS,
  };
}

export async function saveConnection(item: ConnectionItem): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: tableName('connections'), Item: item }));
}

export async function deleteConnection(connectionId: string): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: tableName('connections'), Key: { connection_id: connectionId } }));
}

export interface LiveConnection {
  connectionId: string;
  connectedAt: Date;
}

/** A user's live connections (TTL deletion is lazy, so expired items are skipped here). */
export async function connectionsOf(userId: string, now = new Date()): Promise<LiveConnection[]> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const items = await queryAll<ConnectionItem>({
    TableName: tableName('connections'),
    IndexName: 'by_user',
    KeyConditionExpression: 'user_id = :user',
    ExpressionAttributeValues: { ':user': userId },
  });
  return items.filter((item) => item.expires_at > nowSeconds).map((item) => ({ connectionId: item.connection_id, connectedAt: new Date(item.connected_at) }));
}
