import { GenerateVideoRequest } from '../contracts/video.js';
import { userRoute } from '../core/http.js';
import { generateVideo } from '../domain/video/jobs.js';

export const handler = userRoute({ body: GenerateVideoRequest, idempotent: true }, ({ caller, body, idempotencyKey }) =>
  generateVideo(caller.userId, body, idempotencyKey),
);
