// All DynamoDB access for saved models. Models live in their owner's partition (user_id), so every read and write
// names the caller's partition: another user's model id simply isn't there. Creating and deleting a model move the
// user's `#count` counter in the same transaction, so the cap on saved models holds under concurrent requests.
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PortraitSource } from '../contracts/models.js';
import type { ImageMimeType } from '../contracts/api.js';
import { dynamo, queryAll } from './dynamo.js';
import { cancellationCodes, isConditionFailed } from './dynamo-errors.js';
import { newId } from './ids.js';
import { tableName, type BucketName } from './tables.js';

const COUNTER_ID = '#count';
const MODEL_ID_PREFIX = 'mdl_';
/**
 * The mark an uploaded portrait's key gets when a model takes it ({user_id, id: 'portrait#<upload id>', model_id}):
 * written once, by a conditional put, and never removed, so one upload is the portrait of one model only, ever.
 */
const PORTRAIT_CLAIM_PREFIX = 'portrait#';

/** Where a stored image is. */
export interface StoredImage {
  bucket: BucketName;
  key: string;
  mime_type: ImageMimeType | 'image/png';
}

export interface ModelRecord {
  user_id: string;
  id: string;
  name: string;
  description: string;
  seed: number;
  portrait?: StoredImage & { source: PortraitSource; generation_id?: string };
  /** When the seller confirmed holding the rights to an uploaded portrait's likeness. */
  rights_confirmed_at?: string;
  /** The first picture made with the model (the card's image when there is no portrait), in the results bucket. */
  first_result_key?: string;
  created_at: string;
  updated_at: string;
}

const table = () => tableName('models');

export const newModelId = (now = Date.now()) => `${MODEL_ID_PREFIX}${newId(now)}`;

export type CreateModelOutcome = { created: ModelRecord } | { limitReached: true };

/** Stores a new model unless the user already has `max` of them (the counter and the item in one transaction). */
export async function putModel(record: ModelRecord, max: number): Promise<CreateModelOutcome> {
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: { user_id: record.user_id, id: COUNTER_ID },
              UpdateExpression: 'ADD saved :one',
              ConditionExpression: 'attribute_not_exists(saved) OR saved < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': max },
            },
          },
          { Put: { TableName: table(), Item: record, ConditionExpression: 'attribute_not_exists(id)' } },
        ],
      }),
    );
    return { created: record };
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return { limitReached: true };
    throw error;
  }
}

/**
 * Marks the upload `uploadId` as the portrait of model `modelId`; false when a model (this one or another) has
 * already taken it. The mark stays after the model is deleted: the upload was for that model alone.
 */
export async function claimPortrait(userId: string, uploadId: string, modelId: string, now = new Date().toISOString()): Promise<boolean> {
  try {
    await dynamo.send(
      new PutCommand({
        TableName: table(),
        Item: { user_id: userId, id: `${PORTRAIT_CLAIM_PREFIX}${uploadId}`, model_id: modelId, claimed_at: now },
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/**
 * Gives the model a new portrait (a new rights confirmation with an upload, none with a picked result); the model as
 * it was before, or undefined when the user has no such model.
 */
export async function replacePortrait(
  userId: string,
  id: string,
  portrait: NonNullable<ModelRecord['portrait']>,
  rightsConfirmedAt: string | undefined,
  now = new Date().toISOString(),
): Promise<ModelRecord | undefined> {
  if (!id.startsWith(MODEL_ID_PREFIX)) return undefined;
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: rightsConfirmedAt
          ? 'SET portrait = :portrait, rights_confirmed_at = :rights, updated_at = :now'
          : 'SET portrait = :portrait, updated_at = :now REMOVE rights_confirmed_at',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':portrait': portrait, ':now': now, ...(rightsConfirmedAt ? { ':rights': rightsConfirmedAt } : {}) },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes as ModelRecord | undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** One of the user's models. */
export async function getModel(userId: string, id: string): Promise<ModelRecord | undefined> {
  if (!id.startsWith(MODEL_ID_PREFIX)) return undefined;
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item as ModelRecord | undefined;
}

/** The user's models, newest first (never the counter). */
export async function listModels(userId: string): Promise<ModelRecord[]> {
  return queryAll<ModelRecord>({
    TableName: table(),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    ExpressionAttributeValues: { ':user': userId, ':prefix': MODEL_ID_PREFIX },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
}

/** Renames a model or changes its description; undefined when the user has no such model. */
export async function updateModelDetails(
  userId: string,
  id: string,
  changes: { name?: string; description?: string },
  now = new Date().toISOString(),
): Promise<ModelRecord | undefined> {
  if (!id.startsWith(MODEL_ID_PREFIX)) return undefined;
  const sets = Object.entries(changes).filter(([, value]) => value !== undefined);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: `SET ${[...sets.map(([field]) => `#${field} = :${field}`), 'updated_at = :now'].join(', ')}`,
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: Object.fromEntries(sets.map(([field]) => [`#${field}`, field])),
        ExpressionAttributeValues: { ':now': now, ...Object.fromEntries(sets.map(([field, value]) => [`:${field}`, value])) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ModelRecord | undefined;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** Deletes the model and frees its place under the cap; undefined when the user has no such model. */
export async function deleteModel(userId: string, id: string): Promise<ModelRecord | undefined> {
  const model = await getModel(userId, id);
  if (!model) return undefined;
  try {
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: { user_id: userId, id }, ConditionExpression: 'attribute_exists(id)' } },
          {
            Update: {
              TableName: table(),
              Key: { user_id: userId, id: COUNTER_ID },
              UpdateExpression: 'ADD saved :minus',
              ConditionExpression: 'saved > :zero',
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return model;
  } catch (error) {
    // Deleted meanwhile by a concurrent request: gone either way, and its place was freed once.
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return undefined;
    throw error;
  }
}

/** Records the first picture made with the model (the card's image without a portrait); later ones change nothing. */
export async function recordFirstResult(userId: string, id: string, resultKey: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET first_result_key = :key',
        ConditionExpression: 'attribute_exists(id) AND attribute_not_exists(first_result_key)',
        ExpressionAttributeValues: { ':key': resultKey },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
