// How a video job ends: complete (with the outputs delivered and a refund for any that failed) or failed (with a
// message from the catalogue and a refund of everything it cost). Each end is one conditional transition of the job
// out of `generating`, so the workflow, a cancel and the poller's reconciliation can race and exactly one of them
// ends the job. The refund names the job's debit and is keyed by the job (refund#<jobId>), so it happens once whoever
// applies it, and it is applied again (a replay) by any later attempt that finds the job ended: a crash between the
// transition and the refund is healed by the retry.
import { refund } from '../credits.js';
import { getJob, markJobComplete, markJobFailed, refundableOnCancel, type JobItem } from '../../data/jobs-repo.js';
import { log } from '../../core/log.js';
import { emitMetrics } from '../../core/metrics.js';
import { CANCELLED_BY_USER } from '../../contracts/video-failures.js';
import type { VideoOutputResult } from '../../contracts/workflows.js';
import { recordVideoHistory } from './history.js';

const now = () => new Date().toISOString();

const perOutputCost = (job: JobItem) => job.credits_charged / job.output_count;

async function settleRefund(job: JobItem): Promise<void> {
  if (job.credits_refunded <= 0) return;
  if (!job.debit_id) {
    log.error('video job without its debit: refund not applied', { jobId: job.id, amount: job.credits_refunded });
    return;
  }
  const description =
    job.status === 'failed'
      ? `Refund: video ${job.error_message === CANCELLED_BY_USER ? 'cancelled' : 'generation failed'}`
      : `Refund: ${job.credits_refunded / perOutputCost(job)} of ${job.output_count} videos failed`;
  await refund(job.user_id, { debitId: job.debit_id, ref: job.id, amount: job.credits_refunded, description, type: 'video' });
}

/** A failure of ours or the provider's gives back everything the job cost. */
const refundAll = (job: JobItem) => job.credits_charged;

/**
 * Ends the job as failed with `message` and refunds what `refundOf` says (by default everything); a job that already
 * ended is only made whole.
 */
export async function failJob(
  userId: string,
  jobId: string,
  message: string,
  refundOf: (job: JobItem) => number = refundAll,
): Promise<JobItem | undefined> {
  let ended: JobItem | undefined;
  for (let attempt = 0; attempt < 10 && !ended; attempt++) {
    const current = await getJob(userId, jobId);
    if (!current) return undefined;
    if (current.status !== 'generating') ended = current;
    else {
      ended = await markJobFailed(userId, jobId, message, refundOf(current), now(), current);
      if (ended?.status === 'failed') emitMetrics({ GenerationsFailed: 1 }, { type: 'video' });
    }
  }
  if (!ended) return undefined;
  await settleRefund(ended);
  await recordVideoHistory(ended);
  return ended;
}

/** What one output of the workflow's Map came to. */
export type OutputResult = VideoOutputResult;

/**
 * Ends the job with what its outputs came to: complete when at least one video was delivered (refunding the ones
 * that failed), else failed with the first failure's message. Returns the job as it ended.
 */
export async function completeJob(
  userId: string,
  jobId: string,
  results: OutputResult[],
  failureMessageOf: (errorName: string | undefined) => string,
): Promise<JobItem | undefined> {
  const delivered = results.filter((result): result is Extract<OutputResult, { model: string }> => !result.failed);
  if (delivered.length === 0) {
    const firstFailure = results.find((result) => result.failed);
    return failJob(userId, jobId, failureMessageOf(firstFailure?.failed ? firstFailure.error?.Error : undefined));
  }
  const job = await getJob(userId, jobId);
  if (!job) return undefined;
  const outputs = delivered
    .map(({ failed: _failed, model: _model, ...output }) => output)
    .sort((a, b) => a.index - b.index);
  const failedCount = job.output_count - outputs.length;
  const marked = await markJobComplete(
    userId,
    jobId,
    { outputs, model: delivered[0]!.model, creditsRefunded: failedCount * perOutputCost(job) },
    now(),
  );
  if (marked) emitMetrics({ GenerationsCompleted: 1 }, { type: 'video' });
  const ended = marked ?? (await getJob(userId, jobId));
  if (!ended) return undefined;
  await settleRefund(ended);
  await recordVideoHistory(ended);
  return ended;
}

/** What a cancel gives back: the outputs no paid provider has started. */
export const refundOnCancel = refundableOnCancel;
