import { listWebhooksRoute } from '../contracts/webhooks.js';
import { route } from '../core/http.js';
import { listWebhooks } from '../domain/webhooks/endpoints.js';

export const handler = route(listWebhooksRoute, async ({ caller }) => ({ items: await listWebhooks(caller.userId) }));
