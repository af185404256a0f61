import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { listBatchViews } from '../domain/batch/service.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listBatchViews(caller.userId) }));
