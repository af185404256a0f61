import { getVideoUrlRoute } from '../contracts/video.js';
import { route } from '../core/http.js';
import { videoUrls } from '../domain/video/jobs.js';

export const handler = route(getVideoUrlRoute, ({ caller, body }) => videoUrls(caller.userId, body.jobId));
