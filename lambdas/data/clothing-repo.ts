// All DynamoDB access for clothing_items. Items live in their owner's partition (user_id), so every read and write
// names the caller's partition: another user's item id simply isn't there.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClothingItemRecord } from '../contracts/api.js';
import { tableName } from './tables.js';
import { dynamo, queryAll } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

export type { ClothingItemRecord };

/**
 * A clothing_items row as stored: the API's fields, the image by key. Rows written before the key was named
 * `image_key` name it `image_url` (read, never written).
 */
export type StoredClothingItem = Omit<ClothingItemRecord, 'image_key' | 'product_type'> &
  Partial<Pick<ClothingItemRecord, 'product_type'>> &
  ({ image_key: string } | { image_url: string });

/**
 * A clothing_items row as the code holds it, whichever name its image key was stored under; a row stored before items
 * had a product type is clothing.
 */
export function itemFromStored(stored: StoredClothingItem): ClothingItemRecord {
  const product_type = stored.product_type ?? 'clothing';
  if ('image_key' in stored) return { ...stored, product_type };
  const { image_url, ...item } = stored;
  return { ...item, product_type, image_key: image_url };
}

const table = () => tableName('clothingItems');

/** Stores a new item; false when an item with its id already exists (the same upload registered twice). */
export async function putNewItem(item: ClothingItemRecord): Promise<boolean> {
  try {
    await dynamo.send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** One of the user's items, deleted or not. */
export async function getItem(userId: string, id: string): Promise<ClothingItemRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item && itemFromStored(Item as StoredClothingItem);
}

/** One of the user's items if it is not deleted: what a generation may use. */
export async function getActiveItem(userId: string, id: string): Promise<ClothingItemRecord | undefined> {
  const item = await getItem(userId, id);
  return item && !item.is_deleted ? item : undefined;
}

/** The user's items, newest first; `activeOnly` leaves out deleted ones. */
export async function listItems(userId: string, { activeOnly }: { activeOnly: boolean }): Promise<ClothingItemRecord[]> {
  const stored = await queryAll<StoredClothingItem>({
    TableName: table(),
    KeyConditionExpression: 'user_id = :user',
    ...(activeOnly ? { FilterExpression: 'is_deleted = :false' } : {}),
    ExpressionAttributeValues: { ':user': userId, ...(activeOnly ? { ':false': false } : {}) },
    ScanIndexForward: false,
  });
  return stored.map(itemFromStored).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

/** Whether the user has ever added an item (a deleted one counts): one key read at most. */
export async function hasAnyItem(userId: string): Promise<boolean> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({ TableName: table(), KeyConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': userId }, ProjectionExpression: 'id', Limit: 1 }),
  );
  return Items.length > 0;
}

/** Renames an item or changes its description or product type; undefined when the user has no such item that is not deleted. */
export async function updateItemDetails(
  userId: string,
  id: string,
  changes: Partial<Pick<ClothingItemRecord, 'name' | 'description' | 'product_type'>>,
): Promise<ClothingItemRecord | undefined> {
  const sets = Object.entries(changes).filter(([, value]) => value !== undefined);
  return conditionalUpdate(userId, id, {
    UpdateExpression: `SET ${sets.map(([field]) => `#${field} = :${field}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(id) AND is_deleted = :false',
    ExpressionAttributeNames: Object.fromEntries(sets.map(([field]) => [`#${field}`, field])),
    ExpressionAttributeValues: { ':false': false, ...Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value])) },
  });
}

/** Soft delete: the row and its file stay (history refers to them); the item leaves the active list. */
export async function softDeleteItem(userId: string, id: string): Promise<ClothingItemRecord | undefined> {
  return conditionalUpdate(userId, id, {
    UpdateExpression: 'SET is_deleted = :true',
    ConditionExpression: 'attribute_exists(id)',
    ExpressionAttributeValues: { ':true': true },
  });
}

/** Records the item's thumbnail; undefined when the user has no such item. A thumbnail made twice is simply replaced. */
export async function setThumbnailKey(userId: string, id: string, thumbnailKey: string): Promise<ClothingItemRecord | undefined> {
  return conditionalUpdate(userId, id, {
    UpdateExpression: 'SET thumbnail_key = :key',
    ConditionExpression: 'attribute_exists(id)',
    ExpressionAttributeValues: { ':key': thumbnailKey },
  });
}

/** Counts one more generation made from the item (the Most Used sort reads it). */
export async function incrementGenerationsCount(userId: string, id: string): Promise<ClothingItemRecord | undefined> {
  return conditionalUpdate(userId, id, {
    UpdateExpression: 'ADD generations_count :one',
    ConditionExpression: 'attribute_exists(id)',
    ExpressionAttributeValues: { ':one': 1 },
  });
}

async function conditionalUpdate(
  userId: string,
  id: string,
  update: Pick<
    ConstructorParameters<typeof UpdateCommand>[0],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<ClothingItemRecord | undefined> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({ TableName: table(), Key: { user_id: userId, id }, ReturnValues: 'ALL_NEW', ...update }),
    );
    return Attributes && itemFromStored(Attributes as StoredClothingItem);
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}
