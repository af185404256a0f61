import '../domain/caller-gate.js';
import { GetVideoUrlRequest } from '../contracts/video.js';
import { userRoute } from '../core/http.js';
import { videoUrls } from '../domain/video/jobs.js';

export const handler = userRoute({ body: GetVideoUrlRequest }, ({ caller, body }) => videoUrls(caller.userId, body.jobId));
