// Task DeleteRecords of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { deleteRecords } from '../domain/account/deletion.js';

export const handler = deleteRecords;
