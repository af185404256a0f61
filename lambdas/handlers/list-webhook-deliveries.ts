import { listWebhookDeliveriesRoute } from '../contracts/webhooks.js';
import { route } from '../core/http.js';
import { listDeliveries } from '../domain/webhooks/endpoints.js';

export const handler = route(listWebhookDeliveriesRoute, async ({ caller }) => ({ items: await listDeliveries(caller.userId) }));
