// The executions of an account's deletion, named from its tombstone id: the request starts the first (so a retried
// request is the same execution), and the reconciler starts the next one when the last has died without finishing
// (failed after its retries, timed out, or lost with a killed twin). Every step is safe to run again, so a resumed
// deletion carries on where the dead one stopped. After MAX_DELETION_RESUMES the account is left to an operator.
import type { AccountDeletionInput } from '../../contracts/account.js';
import { executionArn, executionStatus, startExecution } from '../../core/sfn.js';

export const DELETE_ACCOUNT_WORKFLOW = 'deleteAccount';
export const MAX_DELETION_RESUMES = 3;

/** The name of the deletion's execution number `attempt` (0: the one the request starts). */
export const deletionExecutionName = (tombstoneId: string, attempt: number) => (attempt === 0 ? tombstoneId : `${tombstoneId}-resume-${attempt}`);

export const startDeletion = (input: AccountDeletionInput, attempt = 0) => startExecution(DELETE_ACCOUNT_WORKFLOW, deletionExecutionName(input.tombstoneId, attempt), input);

export type DeletionResume = { outcome: 'running' } | { outcome: 'resumed'; execution: string } | { outcome: 'exhausted' };

/** Starts the deletion's next execution unless one is running; `exhausted` once every allowed execution has ended. */
export async function resumeDeletion(input: AccountDeletionInput): Promise<DeletionResume> {
  for (let attempt = 0; attempt <= MAX_DELETION_RESUMES; attempt++) {
    const name = deletionExecutionName(input.tombstoneId, attempt);
    const status = await executionStatus(executionArn(DELETE_ACCOUNT_WORKFLOW, name));
    if (status === 'RUNNING' || status === 'PENDING_REDRIVE') return { outcome: 'running' };
    if (status === undefined) {
      await startDeletion(input, attempt);
      return { outcome: 'resumed', execution: name };
    }
  }
  return { outcome: 'exhausted' };
}
