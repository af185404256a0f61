// All DynamoDB access for generations_history. Rows live in their owner's partition (user_id), so every read and
// write names the caller's partition.
//
// Ids. A generation's id is the one its debit carries (the spending flow picks it when it charges), so a retried
// request finds the same id through its debit, and the conditional create (attribute_not_exists) turns a racing
// retry into a read of the first attempt's row instead of a second generation. The workflow execution is named by
// the id and the refund is keyed by it, so every step of a request is idempotent. Newest-first reads use the local
// index by_created (sort key created_at), which keeps them Queries on the caller's partition with consistent reads.
//
// Status moves only processing → complete or processing → failed, each a conditional update: a late task cannot
// overwrite a failure or a cancellation, and a repeated completion is recognised as such. A failed row stays in the
// in_flight index until its refund is applied, so a crash between the two is found and settled by the reconciler.
import type { ComplianceReport } from '../contracts/marketplace.js';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  PublishedPlace,
  GenerationOperation,
  GenerationParams,
  GenerationStatus,
  GenerationType,
} from '../contracts/generations.js';
import { tableName, type BucketName } from './tables.js';
import { dynamo } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

/** Where a generation's input image is stored, and what it was in the caller's terms. */
export interface GenerationSource {
  kind: 'clothing-item' | 'upload' | 'generation';
  bucket: BucketName;
  key: string;
  /** The clothing item or generation id the image came from. */
  ref?: string;
}

/**
 * The saved model a picture was asked with, as it was at the request: the person stays fixed for that picture even if
 * the model is renamed, described anew or deleted while the work waits.
 */
export interface ModelSnapshot {
  id: string;
  name: string;
  description: string;
  seed: number;
  /** The reference portrait, where the model has one. */
  portrait?: { bucket: BucketName; key: string; mime_type: string };
}

/** A generations_history row as stored: result and thumbnail as object keys (the API answers signed URLs). */
export interface GenerationRecord {
  user_id: string;
  id: string;
  generation_type: GenerationType;
  operation: GenerationOperation;
  ai_model: string;
  status: GenerationStatus;
  credits_used: number;
  /** Set by a failed video job's row (what the job refunded); failed images and batch photos are refunded in full. */
  credits_refunded?: number;
  /** In the results bucket. */
  result_key?: string;
  thumbnail_key?: string;
  result_content_type?: string;
  width?: number;
  height?: number;
  /** What the request asked for that the model did not render (the preview engine lists them). */
  not_rendered?: string[];
  /** The result against every marketplace's rules (lambdas/domain/marketplace/compliance.ts). */
  compliance?: ComplianceReport;
  error_message?: string;
  created_at: string;
  completed_at?: string;
  /** The request's settings, for audit and display. */
  params: GenerationParams;
  source?: GenerationSource;
  /** Set when the product image is a library item: its generations_count grows when this completes. */
  clothing_item_id?: string;
  /** The ledger debit that paid for this generation: its refund names it. */
  debit_id?: string;
  /** The saved model the request named (modelId). */
  model?: ModelSnapshot;
  /** What the pickers call the picture (domain/generation/titles.ts); rows of old get one from their params. */
  title?: string;
  /**
   * While processing, and after a failure until its refund is applied (the sparse in_flight index): how the
   * reconciler finds work that never ended, or failed without its refund (a crash in between).
   */
  in_flight?: 'generation';
  /** The paid provider job (e.g. a FASHN prediction id) an attempt started: a retried attempt waits for it. */
  provider_job?: string;
  /** A packshot's renders from a refined cutout mask so far (reserved by reserveRefinement, at most a limit). */
  refinements?: number;
  /** When a packshot was last rendered from a refined mask. */
  refined_at?: string;
  /** Where the result was published, by `<shop> <product id>` (domain/shopify/publish.ts). */
  published?: Record<string, PublishedPlace>;
}

export interface Transition {
  /** True when this call moved the row out of processing; false when it was no longer processing. */
  changed: boolean;
  generation: GenerationRecord | undefined;
}

export interface Result {
  result_key: string;
  thumbnail_key?: string;
  result_content_type: string;
  width?: number;
  height?: number;
  /** The model that really made it (the adapter's name, e.g. 'preview-engine'). */
  ai_model?: string;
  /** What the request asked for that the model did not render (the preview engine lists them). */
  not_rendered?: string[];
  compliance?: ComplianceReport;
}

const table = () => tableName('generations');
const BY_CREATED = 'by_created';
const STATUS = { '#status': 'status' };

/** Creates the row unless one with its id exists; answers the row as stored (this one, or the earlier one). */
export async function createGeneration(record: GenerationRecord): Promise<{ created: boolean; generation: GenerationRecord }> {
  if (record.status === 'processing') record = { ...record, in_flight: 'generation' };
  try {
    await dynamo.send(new PutCommand({ TableName: table(), Item: record, ConditionExpression: 'attribute_not_exists(id)' }));
    return { created: true, generation: record };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const existing = await getGeneration(record.user_id, record.id);
    if (!existing) throw error; // deleted in between: let the caller retry
    return { created: false, generation: existing };
  }
}

export async function getGeneration(userId: string, id: string): Promise<GenerationRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item as GenerationRecord | undefined;
}

/** processing → complete with its result; `changed: false` when it had already left processing. */
export function completeGeneration(userId: string, id: string, result: Result, now = new Date().toISOString()): Promise<Transition> {
  const fields: Record<string, unknown> = { ...result, completed_at: now, status: 'complete' };
  const names = Object.keys(fields).filter((field) => fields[field] !== undefined);
  return transition(userId, id, {
    UpdateExpression: `SET ${names.map((field) => `#${field} = :${field}`).join(', ')} REMOVE error_message, in_flight`,
    ExpressionAttributeNames: Object.fromEntries(names.map((field) => [`#${field}`, field])),
    ExpressionAttributeValues: Object.fromEntries(names.map((field) => [`:${field}`, fields[field]])),
  });
}

/**
 * Records the paid provider job an attempt of the Process task started, while the row is processing and before the
 * task waits for it. Answers false when the row has left processing (the job's result will not be stored) or an
 * earlier attempt recorded another job (kept: that is the one to wait for).
 */
export async function recordProviderJob(userId: string, id: string, jobId: string): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET provider_job = :job',
        ConditionExpression: '#status = :processing AND (attribute_not_exists(provider_job) OR provider_job = :job)',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':job': jobId, ':processing': 'processing' },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return false;
  }
}

/** processing → failed with a message people can read; `changed: false` when it had already left processing. */
export function failGeneration(userId: string, id: string, message: string, now = new Date().toISOString()): Promise<Transition> {
  return transition(userId, id, {
    // in_flight stays until the refund is applied (settledFailure): a crash before it leaves the row findable.
    UpdateExpression: 'SET #status = :failed, error_message = :message, completed_at = :now',
    ExpressionAttributeNames: STATUS,
    ExpressionAttributeValues: { ':failed': 'failed', ':message': message, ':now': now },
  });
}

/** A failed generation's refund is applied: it leaves the in_flight index. */
export async function settledFailure(userId: string, id: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'REMOVE in_flight',
        ConditionExpression: 'attribute_exists(in_flight) AND #status = :failed',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':failed': 'failed' },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

async function transition(
  userId: string,
  id: string,
  update: { UpdateExpression: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, unknown> },
): Promise<Transition> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: '#status = :processing',
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...STATUS },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':processing': 'processing' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { changed: true, generation: Attributes as GenerationRecord };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return { changed: false, generation: await getGeneration(userId, id) };
  }
}

/**
 * Reserves one render of a finished packshot from a refined mask: one conditional update, so parallel requests never
 * pass the limit. False when the row is not complete or has had `max` already.
 */
export async function reserveRefinement(userId: string, id: string, max: number): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET refinements = if_not_exists(refinements, :zero) + :one',
        ConditionExpression: '#status = :complete AND (attribute_not_exists(refinements) OR refinements < :max)',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max, ':complete': 'complete' },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return false;
  }
}

/** A finished packshot's new render (from a refined mask): its files, model and report; the row stays complete. */
export async function recordRefinedResult(userId: string, id: string, result: Result, now = new Date().toISOString()): Promise<GenerationRecord> {
  const fields: Record<string, unknown> = { ...result, refined_at: now };
  const names = Object.keys(fields).filter((field) => fields[field] !== undefined);
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: table(),
      Key: { user_id: userId, id },
      UpdateExpression: `SET ${names.map((field) => `#${field} = :${field}`).join(', ')}`,
      ConditionExpression: '#status = :complete',
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((field) => [`#${field}`, field])), ...STATUS },
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((field) => [`:${field}`, fields[field]])), ':complete': 'complete' },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as GenerationRecord;
}

/** The user's generations, newest first, at most `limit`; `type` keeps one generation_type. */
export function listGenerations(userId: string, { type, limit }: { type?: GenerationType; limit: number }): Promise<GenerationRecord[]> {
  return queryNewest(userId, limit, type ? { expression: 'generation_type = :type', values: { ':type': type } } : undefined);
}

/** The user's complete image results, newest first, at most `limit`: what edit and upscale may start from. */
export function listImageResults(userId: string, limit: number): Promise<GenerationRecord[]> {
  return queryNewest(userId, limit, {
    expression: '#status = :complete AND attribute_exists(result_key) AND begins_with(result_content_type, :image)',
    names: STATUS,
    values: { ':complete': 'complete', ':image': 'image/' },
  });
}

/** The user's newest complete generations (at most `limit`), only what a duration needs. */
export async function listRecentCompleteTimes(
  userId: string,
  limit: number,
): Promise<Pick<GenerationRecord, 'operation' | 'created_at' | 'completed_at'>[]> {
  const rows = await queryNewest(userId, limit, {
    expression: '#status = :complete AND attribute_exists(completed_at)',
    names: STATUS,
    values: { ':complete': 'complete' },
  });
  return rows.map(({ operation, created_at, completed_at }) => ({ operation, created_at, completed_at }));
}

/** A complete picture or video as the first steps see it: what was made, and a batch photo's shot. */
export type MadeKind = Pick<GenerationRecord, 'operation'> & { params?: { cameraAngle?: string } };

/**
 * Reads the user's complete generations (only what `kind` needs to know of each) until `done` says it has seen enough
 * or the partition ends: one pass, a page at a time.
 */
export async function scanCompleteKinds(userId: string, done: (kind: MadeKind) => boolean): Promise<void> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'user_id = :user',
        FilterExpression: '#status = :complete',
        ProjectionExpression: 'operation, params.cameraAngle',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':user': userId, ':complete': 'complete' },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of (page.Items ?? []) as MadeKind[]) if (done(item)) return;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
}

interface Filter {
  expression: string;
  names?: Record<string, string>;
  values: Record<string, unknown>;
}

// Not queryAll: it stops as soon as it has `limit` rows (a filter may need more than one page to find them).
async function queryNewest(userId: string, limit: number, filter?: Filter): Promise<GenerationRecord[]> {
  const rows: GenerationRecord[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: table(),
        IndexName: BY_CREATED,
        KeyConditionExpression: 'user_id = :user',
        FilterExpression: filter?.expression,
        ExpressionAttributeNames: filter?.names,
        ExpressionAttributeValues: { ':user': userId, ...filter?.values },
        ScanIndexForward: false,
        // A filter reads rows it then drops; reading a little more than asked keeps the page count low.
        Limit: filter ? Math.max(limit * 2, 50) : limit,
        ExclusiveStartKey: cursor,
      }),
    );
    rows.push(...((page.Items ?? []) as GenerationRecord[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor && rows.length < limit);
  return rows.slice(0, limit);
}

/**
 * Records one place the result was published (its card and History show it). Two writes: the map is made when the row
 * has none, then the place is set in it (one expression can't do both: their paths overlap).
 */
export async function recordPublishedPlace(userId: string, id: string, place: PublishedPlace): Promise<void> {
  const key = { user_id: userId, id };
  await dynamo.send(
    new UpdateCommand({ TableName: table(), Key: key, UpdateExpression: 'SET published = if_not_exists(published, :none)', ConditionExpression: 'attribute_exists(id)', ExpressionAttributeValues: { ':none': {} } }),
  );
  await dynamo.send(
    new UpdateCommand({ TableName: table(), Key: key, UpdateExpression: 'SET published.#place = :place', ExpressionAttributeNames: { '#place': `${place.shop} ${place.product_id}` }, ExpressionAttributeValues: { ':place': place } }),
  );
}

/** Forgets the places in one shop (shop/redact). */
export async function forgetPublishedPlaces(userId: string, id: string, shop: string): Promise<void> {
  const record = await getGeneration(userId, id);
  const keys = Object.keys(record?.published ?? {}).filter((key) => key.startsWith(`${shop} `));
  if (keys.length === 0) return;
  await dynamo.send(
    new UpdateCommand({
      TableName: table(),
      Key: { user_id: userId, id },
      UpdateExpression: `REMOVE ${keys.map((_, index) => `published.#p${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(keys.map((key, index) => [`#p${index}`, key])),
    }),
  );
}
