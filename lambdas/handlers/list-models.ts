import { listModelsRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { listModels } from '../domain/models/models.js';

export const handler = route(listModelsRoute, async ({ caller }) => ({ items: await listModels(caller.userId) }));
