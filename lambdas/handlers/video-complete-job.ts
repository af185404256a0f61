// Video workflow task CompleteJob: ends the job with what its outputs came to (refunding the failed ones).
import { completeJob, type OutputResult } from '../domain/video/settle.js';
import { failureMessage } from '../domain/video/workflow-errors.js';
import { workflowTask } from '../core/task.js';

export const handler = workflowTask('CompleteJob', async (input: { userId: string; jobId: string; results: OutputResult[] }) => {
  const job = await completeJob(input.userId, input.jobId, input.results, failureMessage);
  return { status: job?.status ?? 'failed' };
});
