import '../domain/caller-gate.js';
import { GenerateBatchRequest } from '../contracts/batch.js';
import { BATCH_OPERATION, submitBatch } from '../domain/batch/service.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(BATCH_OPERATION, { body: GenerateBatchRequest }, ({ spending, body }) => submitBatch(spending, body));
