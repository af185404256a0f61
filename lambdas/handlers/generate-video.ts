import '../domain/caller-gate.js';
import { GenerateVideoRequest } from '../contracts/video.js';
import { spendingRoute } from '../domain/spending.js';
import { generateVideo } from '../domain/video/jobs.js';

export const handler = spendingRoute('generate-video', { body: GenerateVideoRequest }, ({ spending, body }) => generateVideo(spending, body));
