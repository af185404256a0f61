// Task DeleteSignIn of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { deleteSignIn } from '../domain/account/deletion.js';

export const handler = deleteSignIn;
