import '../domain/caller-gate.js';
import { GenerateImageRequest } from '../contracts/generations.js';
import { generateOnModelImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute('generate-ai-image', { body: GenerateImageRequest }, ({ spending, body }) => generateOnModelImage(spending, body));
