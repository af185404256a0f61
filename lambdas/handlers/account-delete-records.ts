// Task DeleteRecords of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { AccountDeletionInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { deleteRecords } from '../domain/account/deletion.js';

export const handler = workflowTask('DeleteRecords', AccountDeletionInput, deleteRecords);
