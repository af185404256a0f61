// An execution that ended without finishing its own work — FAILED past every Catch, TIMED_OUT, or ABORTED from
// outside — is settled here as soon as Step Functions reports the change (an EventBridge rule in the cloud, the
// local Step Functions API on the twin), never only when someone happens to read a list. Settling is idempotent:
// a job or generation that already ended is only made whole (its refund is keyed by its id).
import type { EventBridgeEvent } from 'aws-lambda';
import { BATCH_MESSAGES } from '../contracts/batch.js';
import { GENERATION_MESSAGES } from '../contracts/generations.js';
import { VIDEO_FAILURE_MESSAGES } from '../contracts/video.js';
import { log } from '../core/log.js';
import { settleBatch } from '../domain/batch/work.js';
import { failAndRefund } from '../domain/generation/service.js';
import { failJob } from '../domain/video/settle.js';
import { finishPublicationStep } from '../domain/shopify/finish.js';
import { SHOPIFY_MESSAGES } from '../contracts/shopify.js';
import { ENDED_STATUSES, workflowEnvName } from '../workflows.js';
import { nonHttpFunction } from '../core/task.js';

export interface ExecutionStatusChange {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | string;
  /** The execution's input, as JSON text. */
  input: string | null;
}

export type ExecutionStatusChangeEvent = EventBridgeEvent<'Step Functions Execution Status Change', ExecutionStatusChange>;

const videoArn = process.env[workflowEnvName('video')];
const generationArn = process.env[workflowEnvName('generation')];
const batchArn = process.env[workflowEnvName('batch')];
const publishArn = process.env[workflowEnvName('publish')];

export const handler = nonHttpFunction('workflow-ended', async (event: ExecutionStatusChangeEvent): Promise<void> => {
  const { stateMachineArn, status, name } = event.detail;
  if (!(ENDED_STATUSES as readonly string[]).includes(status)) return;
  const input = JSON.parse(event.detail.input ?? '{}') as { userId?: string; jobId?: string; generationId?: string; batchId?: string; endpointId?: string; publicationId?: string };
  // A webhook delivery that gave up has nothing to settle: each of its attempts is in the owner's delivery log.
  if (input.endpointId) return log.info('webhook delivery execution ended', { execution: name, status });
  if (!input.userId) return log.warn('ended execution without a user', { execution: name, status });
  const timedOut = status === 'TIMED_OUT';
  if (stateMachineArn === videoArn && input.jobId) {
    const job = await failJob(input.userId, input.jobId, timedOut ? VIDEO_FAILURE_MESSAGES.timedOut : VIDEO_FAILURE_MESSAGES.internal);
    log.info('video execution ended', { jobId: input.jobId, status, jobStatus: job?.status });
  } else if (stateMachineArn === generationArn && input.generationId) {
    const generation = await failAndRefund(input.userId, input.generationId, GENERATION_MESSAGES.genericFailure);
    log.info('generation execution ended', { generationId: input.generationId, status, generationStatus: generation?.status });
  } else if (stateMachineArn === batchArn && input.batchId) {
    // Every photo the execution did not finish is failed and refunded once; then the summary is written.
    const summary = await settleBatch(input.userId, input.batchId, timedOut ? BATCH_MESSAGES.photoTimedOut : BATCH_MESSAGES.photoStopped);
    log.info('batch execution ended', { batchId: input.batchId, status, ...summary });
  } else if (stateMachineArn === publishArn && input.publicationId) {
    // Files not published by then fail; the publication ends with what it published.
    const publication = await finishPublicationStep({ userId: input.userId, publicationId: input.publicationId }, timedOut ? SHOPIFY_MESSAGES.fileTimedOut : SHOPIFY_MESSAGES.fileStopped);
    log.info('publish execution ended', { publicationId: input.publicationId, status, publicationStatus: publication?.status });
  } else {
    log.warn('ended execution of an unknown workflow', { execution: name, stateMachineArn, status });
  }
});
