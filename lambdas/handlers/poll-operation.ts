import { pollOperationRoute } from '../contracts/video.js';
import { route } from '../core/http.js';
import { pollOperation } from '../domain/video/jobs.js';

export const handler = route(pollOperationRoute, ({ caller, body }) =>
  pollOperation(caller.userId, body.jobId, body.operationName),
);
