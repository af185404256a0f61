// Task DeleteSignIn of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { AccountDeletionInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { deleteSignIn } from '../domain/account/deletion.js';

export const handler = workflowTask('DeleteSignIn', AccountDeletionInput, deleteSignIn);
