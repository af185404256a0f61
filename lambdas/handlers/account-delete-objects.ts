// Task DeleteObjects of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { deleteObjects } from '../domain/account/deletion.js';

export const handler = deleteObjects;
