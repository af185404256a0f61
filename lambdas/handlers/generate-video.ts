import { generateVideoRoute } from '../contracts/video.js';
import { spendingRoute } from '../domain/spending.js';
import { generateVideo } from '../domain/video/jobs.js';

export const handler = spendingRoute(generateVideoRoute, 'generate-video', ({ spending, body }) => generateVideo(spending, body));
