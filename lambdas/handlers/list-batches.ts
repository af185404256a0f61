import { listBatchesRoute } from '../contracts/batch.js';
import { route } from '../core/http.js';
import { listBatchViews } from '../domain/batch/service.js';

export const handler = route(listBatchesRoute, async ({ caller }) => ({ items: await listBatchViews(caller.userId) }));
