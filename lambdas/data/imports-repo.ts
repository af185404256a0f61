// All DynamoDB access for product-link imports. An import lives in its owner's partition, so another user's import id
// is simply not there; it expires an hour after it was made (TTL deletes it later, so reads check the time too).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './tables.js';
import { dynamo } from './dynamo.js';

export interface ImportCandidateRecord {
  url: string;
  source: string;
  mime_type: string;
  size_bytes: number;
  width: number;
  height: number;
}

export interface ImportRecord {
  user_id: string;
  id: string;
  page_url: string;
  candidates: ImportCandidateRecord[];
  created_at: string;
  /** Epoch seconds: DynamoDB's TTL attribute. */
  expires_at: number;
}

const table = () => tableName('imports');

export async function putImport(record: ImportRecord): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: table(), Item: record, ConditionExpression: 'attribute_not_exists(id)' }));
}

/** The user's import if it has not expired yet. */
export async function getLiveImport(userId: string, id: string, now = Date.now()): Promise<ImportRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  const record = Item as ImportRecord | undefined;
  return record && record.expires_at * 1000 > now ? record : undefined;
}
