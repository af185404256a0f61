import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { listDeliveries } from '../domain/webhooks/endpoints.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listDeliveries(caller.userId) }));
