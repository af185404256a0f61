// Per-user request limits: a fixed-window counter in DynamoDB, one conditional update per request. The window's item
// counts the requests taken in it and disappears (TTL) once the window is over.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../core/config.js';
import { dynamo } from '../core/dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

/** Each limit: how many requests a user may make per window. */
export const USER_LIMITS = {
  /** POST /imports: every import fetches a page and its images from the internet. */
  imports: { limit: 30, windowSeconds: 60 },
  /** POST /imports/{id}/select: every selection downloads and decodes an image. */
  importSelections: { limit: 30, windowSeconds: 60 },
} as const;
export type UserLimitName = keyof typeof USER_LIMITS;

export type TokenAnswer = { taken: true } | { taken: false; retryAfterSeconds: number };

/** Takes one request from the user's current window of `bucket`; refused when the window's count is used up. */
export async function takeUserToken(userId: string, bucket: UserLimitName, now = Date.now()): Promise<TokenAnswer> {
  const { limit, windowSeconds } = USER_LIMITS[bucket];
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('userLimits'),
        Key: { user_id: userId, window: `${bucket}#${windowStart}` },
        UpdateExpression: 'ADD #count :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil(windowEnd / 1000) + windowSeconds },
      }),
    );
    return { taken: true };
  } catch (error) {
    if (isConditionFailed(error)) return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)) };
    throw error;
  }
}
