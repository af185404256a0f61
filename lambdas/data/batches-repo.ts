// All DynamoDB access for batches. A batch lives in its owner's partition; its photos are generations_history rows
// whose ids start with the batch id (`<batch id>-p<nnn>`), so one Query with begins_with reads every photo of a batch.
import { PutCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchStatus, BatchSummary, CameraAngle } from '../contracts/batch.js';
import type { Marketplace } from '../contracts/marketplace.js';
import type { ProductType } from '../contracts/catalog.js';
import type { ImageAspectRatio } from '../contracts/image-ratios.js';
import { tableName } from './tables.js';
import { dynamo, queryAll } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';
import type { GenerationRecord, ModelSnapshot } from './generations-repo.js';

export interface BatchEntryRecord {
  /** The entry's image: an item of the owner's library, or (generationId) one of the owner's finished images. */
  clothingItemId?: string;
  generationId?: string;
  /** The item's name, or what the result was and when. */
  clothingItemName: string;
  /** What the photos show; absent on batches stored before entries had one (clothing). */
  productType?: ProductType;
  prompt: string;
  cameraAngles: CameraAngle[];
  /** The marketplace preset of the entry's 'Packshot' shot; absent when it asked for none. */
  marketplace?: Marketplace;
  /** #RRGGBB */
  backdrop: string;
  /** The saved model of this entry's photos (its own, or the batch's modelId); absent when described in words. */
  model?: { id: string; name: string };
}

export interface BatchRecord {
  user_id: string;
  id: string;
  status: BatchStatus;
  created_at: string;
  completed_at?: string;
  ai_model: string;
  image_size: string;
  /** Absent on batches stored before ratios were offered (9:16). */
  aspect_ratio?: ImageAspectRatio;
  /** What the whole batch was charged, in one debit. */
  credits_used: number;
  /** The ledger entry that paid for the batch: every photo's refund names it. */
  debit_id: string;
  entries: BatchEntryRecord[];
  photo_count: number;
  summary?: BatchSummary;
  /** Only while processing (the sparse in_flight index): how the reconciler finds a batch whose execution died. */
  in_flight?: 'batch';
  /** When a zip of the finished photos was built: its key in the results bucket. */
  archive_key?: string;
  /**
   * The "Download all" zip job (a batchArchive execution): building, ready (archive_key) or failed. Absent before
   * the first request; a batch zipped before jobs existed has only archive_key.
   */
  archive_status?: ArchiveStatus;
  /** Which zip job is the current one (1, 2, …): it names its execution, and only it may end the status. */
  archive_attempt?: number;
  /** The saved model of every photo (modelId), as it was at the request. */
  model?: ModelSnapshot;
}

export type ArchiveStatus = 'building' | 'ready' | 'failed';

/** The zip job's status; a batch zipped before jobs existed has only its key (ready). */
export const archiveStatusOf = (batch: BatchRecord): ArchiveStatus | undefined => batch.archive_status ?? (batch.archive_key ? 'ready' : undefined);

const table = () => tableName('batches');
const STATUS = { '#status': 'status' };

/** The id of the n-th photo of a batch (n from 0): sorts in order under the batch id. */
export function photoIdFor(batchId: string, index: number): string {
  return `${batchId}-p${String(index).padStart(3, '0')}`;
}

/** Creates the batch unless it exists; answers the batch as stored (this one, or the earlier one). */
export async function createBatch(record: BatchRecord): Promise<BatchRecord> {
  try {
    // Only while processing (the sparse in_flight index): how the reconciler finds a batch whose summary never came.
    const item = record.status === 'processing' ? { ...record, in_flight: 'batch' } : record;
    await dynamo.send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
    return record;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const existing = await getBatch(record.user_id, record.id);
    if (!existing) throw error;
    return existing;
  }
}

export async function getBatch(userId: string, id: string): Promise<BatchRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { user_id: userId, id }, ConsistentRead: true }));
  return Item as BatchRecord | undefined;
}

/** The user's newest batches, newest first. */
export async function listBatches(userId: string, limit: number): Promise<BatchRecord[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'by_created',
      KeyConditionExpression: 'user_id = :user',
      ExpressionAttributeValues: { ':user': userId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items as BatchRecord[];
}

/** processing → complete with its summary, once; `false` when it had already been completed. */
export async function completeBatch(userId: string, id: string, summary: BatchSummary, now = new Date().toISOString()): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET #status = :complete, summary = :summary, completed_at = :now REMOVE in_flight',
        ConditionExpression: '#status = :processing',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':complete': 'complete', ':processing': 'processing', ':summary': summary, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return false;
  }
}

/**
 * Starts a new zip job unless one is building: its attempt number, or undefined when another request started one
 * first (or `replacing` is no longer the current attempt). `replacing`: the attempt this one replaces (a job whose
 * execution ended without ending its status), so two requests that see it dead start one job between them.
 */
export async function startArchive(userId: string, id: string, replacing?: number): Promise<number | undefined> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: 'SET archive_status = :building, archive_attempt = if_not_exists(archive_attempt, :zero) + :one REMOVE archive_key',
        ConditionExpression:
          replacing === undefined
            ? 'attribute_exists(id) AND (attribute_not_exists(archive_status) OR archive_status <> :building)'
            : 'attribute_exists(id) AND archive_attempt = :replacing',
        ExpressionAttributeValues: { ':building': 'building', ':zero': 0, ':one': 1, ...(replacing === undefined ? {} : { ':replacing': replacing }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return (Attributes as BatchRecord).archive_attempt;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return undefined;
  }
}

/** Ends zip job `attempt` (if it is still the current one, building): ready with its key, or failed. */
export async function endArchive(userId: string, id: string, attempt: number, outcome: { key: string } | 'failed'): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { user_id: userId, id },
        UpdateExpression: outcome === 'failed' ? 'SET archive_status = :status' : 'SET archive_status = :status, archive_key = :key',
        ConditionExpression: 'archive_attempt = :attempt AND archive_status = :building',
        ExpressionAttributeValues: {
          ':attempt': attempt,
          ':building': 'building',
          ...(outcome === 'failed' ? { ':status': 'failed' } : { ':status': 'ready', ':key': outcome.key }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return false;
  }
}

/** Every photo row of a batch, in photo order (one Query on the owner's partition). */
export async function listBatchPhotos(userId: string, batchId: string): Promise<GenerationRecord[]> {
  return queryAll<GenerationRecord>({
    TableName: tableName('generations'),
    KeyConditionExpression: 'user_id = :user AND begins_with(id, :prefix)',
    ExpressionAttributeValues: { ':user': userId, ':prefix': `${batchId}-p` },
    ConsistentRead: true,
  });
}
