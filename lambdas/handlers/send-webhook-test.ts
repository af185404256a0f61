import { sendWebhookTestRoute } from '../contracts/webhooks.js';
import { route } from '../core/http.js';
import { sendTestEvent } from '../domain/webhooks/endpoints.js';

export const handler = route(sendWebhookTestRoute, ({ caller, params }) => sendTestEvent(caller.userId, params.id ?? ''));
