// Video workflow task MarkFailed: the job ends failed with the catalogue's message for the error, refunded once.
import { log } from '../core/log.js';
import { failJob } from '../domain/video/settle.js';
import { failureMessage } from '../domain/video/workflow-errors.js';
import { workflowTask } from '../core/task.js';

interface MarkFailedInput {
  userId: string;
  jobId: string;
  /** What the Catch caught: the States error name and its cause (for the log only, never for the user). */
  error?: { Error?: string; Cause?: string };
}

export const handler = workflowTask('MarkFailed', async ({ userId, jobId, error }: MarkFailedInput) => {
  log.warn('video job failed', { error: error?.Error, cause: error?.Cause });
  await failJob(userId, jobId, failureMessage(error?.Error));
  return { status: 'failed' };
});
