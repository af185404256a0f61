import '../domain/caller-gate.js';
import { UpscaleImageRequest } from '../contracts/generations.js';
import { upscaleImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute('upscale-ai-image', { body: UpscaleImageRequest }, ({ spending, body }) => upscaleImage(spending, body));
