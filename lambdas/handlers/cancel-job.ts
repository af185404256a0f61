import { cancelJobRoute } from '../contracts/video.js';
import { route } from '../core/http.js';
import { cancelJob } from '../domain/video/jobs.js';

export const handler = route(cancelJobRoute, ({ caller, params }) => cancelJob(caller.userId, params.id ?? ''));
