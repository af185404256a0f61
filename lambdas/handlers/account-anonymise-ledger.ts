// Task AnonymiseLedger of the delete-account workflow (lambdas/domain/account/deletion.ts).
import { anonymiseLedger } from '../domain/account/deletion.js';

export const handler = anonymiseLedger;
