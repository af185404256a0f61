import { createWebhookRoute } from '../contracts/webhooks.js';
import { route } from '../core/http.js';
import { createWebhook } from '../domain/webhooks/register.js';

export const handler = route(createWebhookRoute, ({ caller, body }) => createWebhook(caller.userId, body));
