import { editAiImageRoute } from '../contracts/generations.js';
import { editImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute(editAiImageRoute, 'edit-ai-image', ({ spending, body }) => editImage(spending, body));
