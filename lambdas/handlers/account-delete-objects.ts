// Task DeleteObjects of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { AccountDeletionInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { deleteObjects } from '../domain/account/deletion.js';

export const handler = workflowTask('DeleteObjects', AccountDeletionInput, deleteObjects);
