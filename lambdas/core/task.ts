// The one wrapper of workflow tasks and other non-HTTP functions (EventBridge targets, the reconciler): each
// invocation logs with its correlation keys — the Lambda request id, the task, the user as a hash, and the
// generation, job or batch id its input names — and an error escaping the task is logged once before Step Functions
// sees it (its Catch, retry and failure messages work on the error as thrown). A workflow task names the schema of its
// input (lambdas/contracts/workflows.ts) and is never run on an input that fails it: TaskInputError goes to the
// task's Catch like any failure, so the work ends failed and refunded.
import type * as z from 'zod';
import { log, withLogKeys } from './log.js';

/** A task was started with an input that its schema refuses (a definition out of step with its task, or a hand-made event). */
export class TaskInputError extends Error {
  constructor(task: string, issues: readonly z.core.$ZodIssue[]) {
    super(`${task}: bad input: ${issues.map((issue) => `${issue.path.join('.') || '(input)'} ${issue.message}`).join('; ')}`);
    this.name = 'TaskInputError';
  }
}

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

/**
 * The handler of a workflow task: `input` is checked against `schema` first. The task gets the input as sent (the
 * schema only checks it), so a state's other fields pass through a task that returns its state.
 */
export function workflowTask<S extends z.ZodType, O>(task: string, schema: S, run: (input: z.output<S>) => Promise<O>): TaskHandler<unknown, O> {
  return nonHttpFunction(task, (input) => {
    const checked = schema.safeParse(input);
    if (!checked.success) throw new TaskInputError(task, checked.error.issues);
    return run(input as z.output<S>);
  });
}

/** The wrapper of a function that is not a workflow task (an EventBridge target, the reconciler): logs and correlation only. */
export function nonHttpFunction<I, O>(task: string, run: (input: I) => Promise<O>): TaskHandler<I, O> {
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
