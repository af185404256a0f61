// Video workflow task MarkFailed: the job ends failed with the catalogue's message for the error, refunded once.
import { log } from '../core/log.js';
import { failJob } from '../domain/video/settle.js';
import { failureMessage } from '../domain/video/workflow-errors.js';
import { workflowTask } from '../core/task.js';
import { VideoMarkFailedInput } from '../contracts/workflows.js';

export const handler = workflowTask('MarkFailed', VideoMarkFailedInput, async ({ userId, jobId, error }) => {
  log.warn('video job failed', { error: error?.Error, cause: error?.Cause });
  await failJob(userId, jobId, failureMessage(error?.Error));
  return { status: 'failed' };
});
