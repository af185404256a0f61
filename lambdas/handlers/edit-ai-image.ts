import '../domain/caller-gate.js';
import { EditImageRequest } from '../contracts/generations.js';
import { editImage } from '../domain/generation/requests.js';
import { spendingRoute } from '../domain/spending.js';

export const handler = spendingRoute('edit-ai-image', { body: EditImageRequest }, ({ spending, body }) => editImage(spending, body));
