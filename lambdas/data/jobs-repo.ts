// All DynamoDB access for video jobs (spec §3 jobs): one item per job in the owner's partition, its id sorting by
// creation time so the newest come first. A job leaves `generating` exactly once: every transition is conditional on
// it, so a cancel racing the workflow's own completion has one winner.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JobStatus, VideoJob, VideoOutput } from '../contracts/video.js';
import { tableName } from '../core/config.js';
import { dynamo } from '../core/dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';

/** The stored job: what the API shows plus where its source image is. */
export interface JobItem extends VideoJob {
  /** Key of the source image in the results bucket. */
  source_key: string;
  source_mime_type: 'image/jpeg' | 'image/png' | 'image/webp';
}

const toJob = ({ source_key: _key, source_mime_type: _type, ...job }: JobItem): VideoJob => job;
export { toJob };

/** Stores a new job; a job with this id already stored (a retried request) is returned instead. */
export async function createJob(job: JobItem): Promise<{ job: JobItem; created: boolean }> {
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
  return Item as JobItem | undefined;
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
  return Items as JobItem[];
}

export interface JobCompletion {
  outputs: VideoOutput[];
  model: string | null;
  /** Credits given back for outputs that failed. */
  creditsRefunded: number;
}

/**
 * generating → complete with the delivered outputs. Returns the updated job, or undefined when the job had already
 * left `generating` (e.g. cancelled while the last step ran).
 */
export function markJobComplete(userId: string, jobId: string, completion: JobCompletion, now: string): Promise<JobItem | undefined> {
  const first = completion.outputs[0];
  return transition(userId, jobId, 'complete', {
    video_url: first?.video_url ?? null,
    thumbnail_url: first?.thumbnail_url ?? null,
    seam_score: first?.seam_score ?? null,
    outputs: completion.outputs,
    model: completion.model,
    credits_refunded: completion.creditsRefunded,
    error_message: null,
    updated_at: now,
  });
}

/** generating → failed with the message people read; everything it was charged is to be refunded. */
export function markJobFailed(userId: string, jobId: string, message: string, refund: number, now: string): Promise<JobItem | undefined> {
  return transition(userId, jobId, 'failed', { error_message: message, credits_refunded: refund, updated_at: now });
}

async function transition(
  userId: string,
  jobId: string,
  status: Exclude<JobStatus, 'generating'>,
  fields: Partial<JobItem>,
): Promise<JobItem | undefined> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':status': status, ':generating': 'generating' };
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
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(id) AND #status = :generating',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as JobItem;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}
