// Emission: the table streams of generations, jobs, batches and publications say when a record becomes terminal (its
// status moves from processing/generating/publishing to an end state, each exactly once thanks to the repositories'
// conditions). Each such
// change becomes one event, delivered to every endpoint of its owner subscribed to its type. The event id is derived
// from the change, so a stream batch retried after a failure starts the same executions (no second delivery).
import { createHash } from 'node:crypto';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { WebhookEventRef, WebhookEventType } from '../../contracts/webhooks.js';
import { log } from '../../core/log.js';
import { listEndpoints } from '../../data/webhooks-repo.js';
import { streamedTableOf, type StreamedTable } from '../../realtime/messages.js';
import { startDelivery } from './start.js';

export interface TerminalChange {
  type: WebhookEventType;
  userId: string;
  resourceId: string;
  table: 'generations' | 'jobs' | 'batches' | 'publications';
}

const RUNNING = new Set(['processing', 'generating', 'publishing']);

/** The webhook event a stream record means, or undefined (not a transition into an end state, or not shown). */
export function terminalChangeOf(table: StreamedTable, record: DynamoDBRecord): TerminalChange | undefined {
  if (record.eventName !== 'MODIFY' || (table !== 'generations' && table !== 'jobs' && table !== 'batches' && table !== 'publications')) return undefined;
  const before = record.dynamodb?.OldImage;
  const after = record.dynamodb?.NewImage;
  const oldStatus = before?.status?.S;
  const newStatus = after?.status?.S;
  const userId = after?.user_id?.S;
  const resourceId = after?.id?.S;
  if (!userId || !resourceId || !oldStatus || !newStatus || !RUNNING.has(oldStatus) || RUNNING.has(newStatus)) return undefined;
  if (table === 'generations') {
    // A batch's photos are told by batch.completed; a video's history rows by video.*.
    const kind = after?.generation_type?.S;
    if (kind === 'batch' || kind === 'video') return undefined;
    return { table, userId, resourceId, type: newStatus === 'complete' ? 'generation.completed' : 'generation.failed' };
  }
  if (table === 'jobs') return { table, userId, resourceId, type: newStatus === 'complete' ? 'video.completed' : 'video.failed' };
  // Complete, partial or failed alike: the event's data tells file by file.
  if (table === 'publications') return { table, userId, resourceId, type: 'publish.completed' };
  return newStatus === 'complete' ? { table, userId, resourceId, type: 'batch.completed' } : undefined;
}

export const eventIdOf = (change: TerminalChange) =>
  `evt_${createHash('sha256').update(`${change.type}\n${change.userId}\n${change.resourceId}`).digest('hex').slice(0, 24)}`;

/**
 * Starts the deliveries of one change; nothing is read beyond the owner's endpoints. The executions carry the ids
 * only: each attempt reads the resource and signs its URLs when it sends (delivery.ts).
 */
export async function emitChange(change: TerminalChange): Promise<number> {
  const endpoints = (await listEndpoints(change.userId)).filter((endpoint) => !endpoint.disabled_at && endpoint.events.includes(change.type));
  if (endpoints.length === 0) return 0;
  const event: WebhookEventRef = { id: eventIdOf(change), type: change.type, timestamp: new Date().toISOString(), resourceId: change.resourceId };
  await Promise.all(endpoints.map((endpoint) => startDelivery(change.userId, endpoint.id, event)));
  log.info('webhook event emitted', { eventId: event.id, type: event.type, userId: change.userId, endpoints: endpoints.length });
  return endpoints.length;
}

/** The stream consumer: a record whose deliveries could not be started is reported, so the event source retries it. */
export async function emitFromStream(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    const table = streamedTableOf(record.eventSourceARN);
    const change = table && terminalChangeOf(table, record);
    if (!change) continue;
    try {
      await emitChange(change);
    } catch (error) {
      log.error('webhook emission failed', { userId: change.userId, resourceId: change.resourceId, type: change.type, error });
      const sequenceNumber = record.dynamodb?.SequenceNumber;
      if (sequenceNumber) failures.push({ itemIdentifier: sequenceNumber });
      // Records of one shard are processed in order: the event source resumes from the first failure.
      break;
    }
  }
  return { batchItemFailures: failures };
}
