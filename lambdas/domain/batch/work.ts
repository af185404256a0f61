// The batch workflow's work (lib/workflows/batch.asl.json). Each photo runs the generation workflow's Process task
// (domain/generation/work.ts makes 'batch' rows through the on-model port); a photo whose Process fails ends in
// FailPhoto: the row is marked failed with a catalogue message and its credit is refunded once, naming the batch's
// debit. Summarize writes the batch's summary. An execution that ends without reaching Summarize (a timeout, a stop)
// is settled by workflow-ended with settleBatch: every photo still processing is failed and refunded, then the
// summary is written. Every step is idempotent: a refund is keyed by the photo, the summary is written once.
import { PROVIDER_MESSAGES } from '../../contracts/catalog.js';
import { BATCH_MESSAGES } from '../../contracts/batch.js';
import type { BatchPhotoInput } from '../../contracts/workflows.js';
import { log } from '../../core/log.js';
import { emitMetrics } from '../../core/metrics.js';
import * as batches from '../../data/batches-repo.js';
import { failGeneration, settledFailure, type GenerationRecord } from '../../data/generations-repo.js';
import { GENERATION_ERROR, GENERATION_TASK_ERRORS, type CaughtError } from '../generation/failure.js';
import { taskErrors } from '../task-errors.js';
import { refund } from '../credits.js';
import { endRunning } from '../limits.js';
import { summaryOf } from './service.js';

export type PhotoTaskInput = BatchPhotoInput;

/** A photo runs the generation's Process task: its error names, with the batch's messages. */
const PHOTO_ERRORS = taskErrors({
  ...GENERATION_TASK_ERRORS,
  messages: {
    [GENERATION_ERROR.contentPolicy]: GENERATION_TASK_ERRORS.messages[GENERATION_ERROR.contentPolicy],
    [GENERATION_ERROR.account]: { oneOf: [PROVIDER_MESSAGES.accountNotPaid], otherwise: BATCH_MESSAGES.photoFailed },
  },
  fallback: BATCH_MESSAGES.photoFailed,
});

/** The catalogue message of a failed photo: a content-policy refusal says so, anything else is the generic one. */
export function photoFailureMessage(error: CaughtError | undefined): string {
  return PHOTO_ERRORS.message(error?.Error, error?.Cause);
}

/** FailPhoto: reached by the Catch inside the Map's iteration, so one failed photo never stops the others. */
export async function failPhotoTask({ userId, batchId, photoId, error }: PhotoTaskInput & { error?: CaughtError }): Promise<{ status: string }> {
  const batch = await batches.getBatch(userId, batchId);
  if (!batch) throw new Error(`Batch ${batchId} does not exist`);
  log.info('batch photo failed', { batchId, photoId, error: error?.Error });
  const photo = await failAndRefundPhoto(batch, photoId, photoFailureMessage(error));
  return { status: photo?.status ?? 'missing' };
}

/** Ends a photo failed (unless it already ended) and, when it is failed, refunds its credit once. */
async function failAndRefundPhoto(batch: batches.BatchRecord, photoId: string, message: string): Promise<GenerationRecord | undefined> {
  const { generation, changed } = await failGeneration(batch.user_id, photoId, message);
  if (changed) emitMetrics({ GenerationsFailed: 1 }, { type: 'batch' });
  if (generation?.status === 'failed' && generation.credits_used > 0) {
    await refund(batch.user_id, {
      type: 'batch',
      debitId: batch.debit_id,
      amount: generation.credits_used,
      ref: photoId,
      description: `Refund: batch photo failed (${String(generation.params.cameraAngle)}, ${String(generation.params.clothingItemName)})`,
    });
  }
  if (generation?.status === 'failed') await settledFailure(batch.user_id, photoId);
  return generation;
}

/** Summarize: the last state. Every photo has ended by now; one that somehow has not is settled first. */
export async function summarizeTask({ userId, batchId }: { userId: string; batchId: string }): Promise<{ successfulGenerations: number; failedGenerations: number }> {
  const summary = await settleBatch(userId, batchId, BATCH_MESSAGES.photoFailed);
  return { successfulGenerations: summary.successfulGenerations, failedGenerations: summary.failedGenerations };
}

/** Fails and refunds every photo still processing, then writes the summary (once) and gives back the batch's place. */
export async function settleBatch(userId: string, batchId: string, message: string) {
  const batch = await batches.getBatch(userId, batchId);
  if (!batch) throw new Error(`Batch ${batchId} does not exist`);
  // A photo still processing is failed; a failed one is made whole (a refund interrupted after the row was failed
  // is applied now). Refunds are keyed by the photo, so each happens once however often this runs.
  let rows = await batches.listBatchPhotos(userId, batchId);
  const open = rows.filter((row) => row.status !== 'complete');
  for (const row of open) await failAndRefundPhoto(batch, row.id, row.error_message ?? message);
  if (open.some((row) => row.status === 'processing')) rows = await batches.listBatchPhotos(userId, batchId);
  const done = rows.filter((row) => row.status === 'complete').length;
  const summary = summaryOf(done, rows.length - done);
  const written = await batches.completeBatch(userId, batchId, summary);
  await endRunning(userId, 'batch', batchId);
  log.info('batch summarized', { batchId, ...summary, written });
  return written ? summary : ((await batches.getBatch(userId, batchId))?.summary ?? summary);
}
