import { upscaleAiImageRoute } from '../contracts/generations.js';
import { upscaleImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(upscaleAiImageRoute, 'upscale-ai-image', ({ spending, body }) => upscaleImage(spending, body));
