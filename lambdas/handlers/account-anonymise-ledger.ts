// Task AnonymiseLedger of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { AccountDeletionInput } from '../contracts/account.js';
import { workflowTask } from '../core/task.js';
import { anonymiseLedger } from '../domain/account/deletion.js';

export const handler = workflowTask('AnonymiseLedger', AccountDeletionInput, anonymiseLedger);
