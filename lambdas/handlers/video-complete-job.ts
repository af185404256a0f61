// Video workflow task CompleteJob: ends the job with what its outputs came to (refunding the failed ones).
import { completeJob } from '../domain/video/settle.js';
import { failureMessage } from '../domain/video/workflow-errors.js';
import { workflowTask } from '../core/task.js';
import { VideoCompleteInput } from '../contracts/workflows.js';

export const handler = workflowTask('CompleteJob', VideoCompleteInput, async (input) => {
  const job = await completeJob(input.userId, input.jobId, input.results, failureMessage);
  return { status: job?.status ?? 'failed' };
});
