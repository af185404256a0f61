import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { cancelJob } from '../domain/video/jobs.js';

export const handler = userRoute({}, ({ caller, params }) => cancelJob(caller.userId, params.id ?? ''));
