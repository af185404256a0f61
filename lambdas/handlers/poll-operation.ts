import '../domain/caller-gate.js';
import { PollOperationRequest } from '../contracts/video.js';
import { userRoute } from '../core/http.js';
import { pollOperation } from '../domain/video/jobs.js';

export const handler = userRoute({ body: PollOperationRequest }, ({ caller, body }) =>
  pollOperation(caller.userId, body.jobId, body.operationName),
);
