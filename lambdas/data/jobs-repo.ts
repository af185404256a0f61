// All DynamoDB access for video jobs: one item per job in the owner's partition, its id sorting by
// creation time so the newest come first. A job leaves `generating` exactly once: every transition is conditional on
// it, so a cancel racing the workflow's own completion has one winner.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { videoJobOnWire, type DeliveredVideo, type JobStatus, type VideoJob, type VideoJobRecord } from '../contracts/video.js';
import { tableName } from './tables.js';
import { dynamo } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

/** The stored job: what the API shows (its files by key) plus where its source image is. */
export interface JobItem extends VideoJobRecord {
  /** Key of the source image in the results bucket. */
  source_key: string;
  source_mime_type: 'image/jpeg' | 'image/png' | 'image/webp';
  /** The product the source image shows (a library item's name, a result's product): the videos' file names. */
  product_name?: string;
  /** The ledger debit that paid for the job: its refund names it. */
  debit_id?: string;
  /** Outputs whose call to a paid provider has started (cancelling no longer refunds them). */
  paid_outputs_started?: number[];
  /**
   * From creation until the job's end has been settled (refund, place, history: settledEnd), in the sparse in_flight
   * index: how the reconciler finds jobs that never ended, or ended without their refund (a crash in between).
   */
  in_flight?: 'video';
}

/** Credits a cancel would give back now: every output not yet started at a paid provider. */
export function refundableOnCancel(job: JobItem): number {
  if (job.status !== 'generating') return 0;
  const started = new Set(job.paid_outputs_started ?? []).size;
  return (job.credits_charged / job.output_count) * (job.output_count - started);
}

const toJob = (job: JobItem): VideoJob => {
  const { source_key: _key, source_mime_type: _type, product_name: _product, debit_id: _debit, paid_outputs_started: _started, in_flight: _inFlight, ...shown } = job;
  return videoJobOnWire(shown, refundableOnCancel(job));
};
export { toJob };

/**
 * An output as stored or as a video workflow hands it over. Jobs written before the keys were named `*_key` name
 * them `video_url` and `thumbnail_url` (those attributes are read, never written), as does a FinalizeOutput that ran
 * the code before that rename.
 */
export type StoredOutput = Omit<DeliveredVideo, 'video_key' | 'thumbnail_key'> &
  ({ video_key: string; thumbnail_key: string } | { video_url: string; thumbnail_url: string });
export type StoredJob = Omit<JobItem, 'video_key' | 'thumbnail_key' | 'outputs'> & {
  video_key?: string | null;
  thumbnail_key?: string | null;
  video_url?: string | null;
  thumbnail_url?: string | null;
  outputs: StoredOutput[];
};

export function outputFromStored(stored: StoredOutput): DeliveredVideo {
  if ('video_key' in stored) return stored;
  const { video_url, thumbnail_url, ...output } = stored;
  return { ...output, video_key: video_url, thumbnail_key: thumbnail_url };
}

/** A jobs item as the code holds it, whichever names it was stored with. */
export function jobFromStored(stored: StoredJob): JobItem {
  const { video_url, thumbnail_url, video_key, thumbnail_key, outputs, ...job } = stored;
  return {
    ...job,
    video_key: video_key !== undefined ? video_key : (video_url ?? null),
    thumbnail_key: thumbnail_key !== undefined ? thumbnail_key : (thumbnail_url ?? null),
    outputs: outputs.map(outputFromStored),
  };
}

/** Stores a new job; a job with this id already stored (a retried request) is returned instead. */
export async function createJob(job: JobItem): Promise<{ job: JobItem; created: boolean }> {
  if (job.status === 'generating') job = { ...job, in_flight: 'video' };
  try {
    await dynamo.send(
      new PutCommand({ TableName: tableName('jobs'), Item: job, ConditionExpression: 'attribute_not_exists(id)' }),
    );
    return { job, created: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const existing = await getJob(job.user_id, job.id);
    if (!existing) throw error;
    return { job: existing, created: false };
  }
}

export async function getJob(userId: string, jobId: string): Promise<JobItem | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('jobs'), Key: { user_id: userId, id: jobId }, ConsistentRead: true }),
  );
  return Item && jobFromStored(Item as StoredJob);
}

/** The user's newest jobs, newest first. */
export async function listJobs(userId: string, limit: number): Promise<JobItem[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName('jobs'),
      KeyConditionExpression: 'user_id = :user',
      ExpressionAttributeValues: { ':user': userId },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (Items as StoredJob[]).map(jobFromStored);
}

/**
 * Records that output `output` is about to be sent to a paid provider (before the call, so a cancel racing it never
 * refunds work that was paid for). Only while the job is generating: false when it has already ended.
 */
export async function markPaidOutputStarted(userId: string, jobId: string, output: number): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('jobs'),
        Key: { user_id: userId, id: jobId },
        UpdateExpression: 'SET paid_outputs_started = list_append(if_not_exists(paid_outputs_started, :none), :output)',
        ConditionExpression: '#status = :generating',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':none': [], ':output': [output], ':generating': 'generating' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export interface JobCompletion {
  outputs: StoredOutput[];
  model: string | null;
  /** Credits given back for outputs that failed. */
  creditsRefunded: number;
}

/**
 * generating → complete with the delivered outputs. Returns the updated job, or undefined when the job had already
 * left `generating` (e.g. cancelled while the last step ran).
 */
export function markJobComplete(userId: string, jobId: string, completion: JobCompletion, now: string): Promise<JobItem | undefined> {
  const outputs = completion.outputs.map(outputFromStored);
  const first = outputs[0];
  return transition(userId, jobId, 'complete', {
    video_key: first?.video_key ?? null,
    thumbnail_key: first?.thumbnail_key ?? null,
    seam_score: first?.seam_score ?? null,
    outputs,
    model: completion.model,
    credits_refunded: completion.creditsRefunded,
    error_message: null,
    updated_at: now,
  });
}

/**
 * generating → failed with the message people read and what is to be refunded, which was computed from `seen`: the
 * transition happens only if no paid output has started since (else undefined, and the caller looks again).
 */
export function markJobFailed(userId: string, jobId: string, message: string, refund: number, now: string, seen: JobItem): Promise<JobItem | undefined> {
  const started = seen.paid_outputs_started?.length ?? 0;
  return transition(userId, jobId, 'failed', { error_message: message, credits_refunded: refund, updated_at: now }, {
    expression: started === 0 ? 'attribute_not_exists(paid_outputs_started) OR size(paid_outputs_started) = :started' : 'size(paid_outputs_started) = :started',
    values: { ':started': started },
  });
}

async function transition(
  userId: string,
  jobId: string,
  status: Exclude<JobStatus, 'generating'>,
  fields: Partial<JobItem>,
  also?: { expression: string; values: Record<string, unknown> },
): Promise<JobItem | undefined> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':status': status, ':generating': 'generating', ...also?.values };
  const sets = ['#status = :status'];
  for (const [field, value] of Object.entries(fields)) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName('jobs'),
        Key: { user_id: userId, id: jobId },
        // in_flight stays until the end is settled (settledEnd): a crash before its refund leaves the job findable.
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(id) AND #status = :generating${also ? ` AND (${also.expression})` : ''}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes && jobFromStored(Attributes as StoredJob);
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** The job's end is settled (its refund, place and history applied): it leaves the in_flight index. */
export async function settledEnd(userId: string, jobId: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('jobs'),
        Key: { user_id: userId, id: jobId },
        UpdateExpression: 'REMOVE in_flight',
        ConditionExpression: 'attribute_exists(in_flight) AND #status <> :generating',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':generating': 'generating' },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
