import { GenerateBatchRequest } from '../contracts/batch.js';
import { userRoute } from '../core/http.js';
import { submitBatch } from '../domain/batch/service.js';

export const handler = userRoute({ body: GenerateBatchRequest, idempotent: true }, ({ caller, body, idempotencyKey }) =>
  submitBatch({ userId: caller.userId, idempotencyKey }, body),
);
