import { generateBatchRoute } from '../contracts/batch.js';
import { BATCH_OPERATION, submitBatch } from '../domain/batch/service.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(generateBatchRoute, BATCH_OPERATION, ({ spending, body }) => submitBatch(spending, body));
