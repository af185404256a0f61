// All DynamoDB access for publications to Shopify (tables.ts `publications`), in the owner's partition. A publication
// is one item whose files carry their own progress, so each step of the publish workflow is one conditional update of
// one file (the stream turns it into a live "publications changed" and, at the end, the publish.completed event).
// A publication's id derives from the request's Idempotency-Key when it has one: a retried request finds it again.
// Matches (`match#<shop>#<clothing item>`) remember the product a library item was last published to.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Placement, PublicationStatus, PublishedFileStatus } from '../contracts/shopify.js';
import { batchWriteAll, dynamo, queryAll } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';
import { tableName } from './tables.js';

const table = () => tableName('publications');
export const PUBLICATION_PREFIX = 'pub_';
const MATCH_PREFIX = 'match#';

export interface PublicationFileRecord {
  generation_id: string;
  product_id: string;
  product_title: string;
  content_type: string;
  /** The file's name in Shopify, its idempotency key there: one result is one file of the shop, whatever the products. */
  file_name: string;
  status: PublishedFileStatus;
  error?: string;
  /** Shopify's id of the file once created (also its media id on the product). */
  file_id?: string;
  admin_url?: string;
  /** How many times the workflow waited on this file (Shopify's processing or its throttle). */
  waits?: number;
}

export interface PublicationRecord {
  user_id: string;
  id: string;
  shop: string;
  status: PublicationStatus;
  placement: Placement;
  created_at: string;
  completed_at?: string;
  /** The request's body, hashed: a key reused with another body is refused. */
  request_hash: string;
  files: PublicationFileRecord[];
}

export interface MatchRecord {
  user_id: string;
  id: string;
  shop: string;
  clothing_item_id: string;
  product_id: string;
  product_title: string;
  image_url: string | null;
  updated_at: string;
}

/** Creates the publication unless its id exists; answers the one stored (this one, or the earlier request's). */
export async function createPublication(record: PublicationRecord): Promise<{ created: boolean; publication: PublicationRecord }> {
  try {
    await dynamo.send(new PutCommand({ TableName: table(), Item: record, ConditionExpression: 'attribute_not_exists(id)' }));
    return { created: true, publication: record };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const existing = await getPublication(record.user_id, record.id);
    if (!existing) throw error;
    return { created: false, publication: existing };
  }
}

export async function getPublication(userId: string, id: string): Promise<PublicationRecord | undefined> {
  if (!id.startsWith(PUBLICATION_PREFIX)) return undefined;
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item as PublicationRecord | undefined;
}

/** The newest publications first. */
export async function listPublications(userId: string, limit: number): Promise<PublicationRecord[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'by_created',
      KeyConditionExpression: 'user_id = :user',
      FilterExpression: 'begins_with(id, :prefix)',
      ExpressionAttributeValues: { ':user': userId, ':prefix': PUBLICATION_PREFIX },
      ScanIndexForward: false,
      Limit: limit * 2,
    }),
  );
  return (Items as PublicationRecord[]).slice(0, limit);
}

/** Every publication of the user to one shop (shop/redact). */
export async function listShopPublications(userId: string, shop: string): Promise<PublicationRecord[]> {
  return queryAll<PublicationRecord>({
    TableName: table(),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    FilterExpression: 'shop = :shop',
    ExpressionAttributeValues: { ':user': userId, ':prefix': PUBLICATION_PREFIX, ':shop': shop },
  });
}

type FileChanges = Partial<Omit<PublicationFileRecord, 'generation_id' | 'product_id' | 'file_name' | 'content_type'>>;

/**
 * Changes one file of a publication still publishing; a file already published is never changed again (a retried
 * step finds it done). False when nothing was written (the publication ended, or the file was published).
 */
export async function updateFile(userId: string, id: string, index: number, changes: FileChanges, unset: (keyof FileChanges)[] = []): Promise<boolean> {
  const names = (Object.keys(changes) as (keyof FileChanges)[]).filter((name) => changes[name] !== undefined);
  const set = names.map((name) => `files[${index}].#${name} = :${name}`);
  const remove = unset.map((name) => `files[${index}].#${name}`);
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' '),
        ConditionExpression: `#status = :publishing AND files[${index}].#fileStatus <> :published`,
        ExpressionAttributeNames: {
          ...Object.fromEntries([...names, ...unset].map((name) => [`#${name}`, name])),
          '#status': 'status',
          '#fileStatus': 'status',
        },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name) => [`:${name}`, changes[name]])), ':publishing': 'publishing', ':published': 'published' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** publishing → its end state, once; the publication as it ended, or undefined when it had already ended. */
export async function finishPublication(userId: string, id: string, status: Exclude<PublicationStatus, 'publishing'>, files: PublicationFileRecord[], now = new Date().toISOString()): Promise<PublicationRecord | undefined> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET #status = :status, completed_at = :now, files = :files',
        ConditionExpression: '#status = :publishing',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':now': now, ':files': files, ':publishing': 'publishing' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as PublicationRecord;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

export const matchId = (shop: string, clothingItemId: string) => `${MATCH_PREFIX}${shop}#${clothingItemId}`;

/** Remembers each library item's product in the shop (the newest publication wins). */
export async function putMatches(matches: Omit<MatchRecord, 'id'>[]): Promise<void> {
  await batchWriteAll(table(), matches.map((match) => ({ PutRequest: { Item: { ...match, id: matchId(match.shop, match.clothing_item_id) } } })));
}

export function listMatches(userId: string, shop: string): Promise<MatchRecord[]> {
  return queryAll<MatchRecord>({
    TableName: table(),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    ExpressionAttributeValues: { ':user': userId, ':prefix': `${MATCH_PREFIX}${shop}#` },
    ConsistentRead: true,
  });
}

/** Deletes the user's publications to one shop and the matches in it (shop/redact); answers how many items went. */
export async function deleteShopRecords(userId: string, shop: string): Promise<number> {
  const [publications, matches] = await Promise.all([listShopPublications(userId, shop), listMatches(userId, shop)]);
  const keys = [...publications, ...matches].map(({ id }) => ({ user_id: userId, id }));
  await batchWriteAll(table(), keys.map((Key) => ({ DeleteRequest: { Key } })));
  return keys.length;
}
