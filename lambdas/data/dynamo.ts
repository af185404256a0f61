// The DynamoDB document client, created once per container. Locally the twin sets AWS_ENDPOINT_URL_DYNAMODB.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, ScanCommand, TransactWriteCommand, type QueryCommandInput, type ScanCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { jitter, sleep } from '../core/backoff.js';
import { cancellationCodes } from './dynamo-errors.js';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

/** Every item a Query finds, page after page (for reads that need them all; a list a user pages through uses Limit). */
export function queryAll<T>(input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<T[]> {
  return allPages<T>((cursor) => dynamo.send(new QueryCommand({ ...input, ExclusiveStartKey: cursor })));
}

/** Every item of a Scan, page after page: only for tables that hold a handful of items (the pricing tiers). */
export function scanAll<T>(input: Omit<ScanCommandInput, 'ExclusiveStartKey'>): Promise<T[]> {
  return allPages<T>((cursor) => dynamo.send(new ScanCommand({ ...input, ExclusiveStartKey: cursor })));
}

type Page = { Items?: Record<string, unknown>[]; LastEvaluatedKey?: Record<string, unknown> };

async function allPages<T>(read: (cursor: Record<string, unknown> | undefined) => Promise<Page>): Promise<T[]> {
  const items: T[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await read(cursor);
    items.push(...((page.Items ?? []) as T[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/**
 * One TransactWriteItems, tried again while it only collided with another transaction in flight on the same items
 * (TransactionConflict: nothing was written, and the SDK does not retry it). A condition that failed is the caller's
 * answer and is thrown at once.
 */
export async function transactWrite(input: TransactWriteCommandInput, attempts = 12): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo.send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      const conflictOnly = codes?.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
      if (!conflictOnly || attempt + 1 >= attempts) throw error;
      await sleep(jitter(attempt + 1));
    }
  }
}

/**
 * Puts or deletes items of one table 25 at a time (BatchWriteItem's most), sending again what DynamoDB left
 * unprocessed after a growing pause, until every request is written.
 */
export async function batchWriteAll(table: string, requests: ({ PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } })[]): Promise<void> {
  for (let start = 0; start < requests.length; start += 25) {
    let pending: Record<string, unknown>[] | undefined = requests.slice(start, start + 25);
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > 0) await sleep(Math.min(2000, 50 * 2 ** attempt));
      const answer = await dynamo.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = answer.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined;
    }
  }
}
