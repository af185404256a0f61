// The one wrapper of workflow tasks and other non-HTTP functions (EventBridge targets, the reconciler): each
// invocation logs with its correlation keys — the Lambda request id, the task, the user as a hash, and the
// generation, job or batch id its input names — and an error escaping the task is logged once before Step Functions
// sees it (its Catch, retry and failure messages work on the error as thrown).
import { log, withLogKeys } from './log.js';

/** The ids a workflow's input carries (see lib/workflows/*.asl.json). */
interface CorrelatedInput {
  userId?: unknown;
  generationId?: unknown;
  /** A batch photo's generation id. */
  photoId?: unknown;
  jobId?: unknown;
  batchId?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export type TaskHandler<I, O> = (input: I, context?: { awsRequestId?: string }) => Promise<O>;

export function workflowTask<I, O>(task: string, run: (input: I) => Promise<O>): TaskHandler<I, O> {
  return (input, context) => {
    const ids = (input && typeof input === 'object' ? input : {}) as CorrelatedInput;
    const keys = {
      requestId: context?.awsRequestId,
      task,
      userId: text(ids.userId),
      generationId: text(ids.generationId) ?? text(ids.photoId),
      jobId: text(ids.jobId),
      batchId: text(ids.batchId),
    };
    return withLogKeys(keys, async () => {
      try {
        return await run(input);
      } catch (error) {
        log.warn('task failed', { error });
        throw error;
      }
    });
  };
}
