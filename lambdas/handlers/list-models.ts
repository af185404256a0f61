import { userRoute } from '../core/http.js';
import { listModels } from '../domain/models/models.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listModels(caller.userId) }));
