// All DynamoDB access for per-user request counters: one item per (user, limit, window), counted up by one
// conditional update, so a request is let through or refused in a single round trip and counters of many
// concurrent requests never lose a count. Items expire (TTL) once their window is long over.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './tables.js';
import { dynamo } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

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
