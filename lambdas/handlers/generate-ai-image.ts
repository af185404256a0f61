import { generateAiImageRoute } from '../contracts/generations.js';
import { generateOnModelImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(generateAiImageRoute, 'generate-ai-image', ({ spending, body }) => generateOnModelImage(spending, body));
