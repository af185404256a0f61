import { deleteWebhookRoute } from '../contracts/webhooks.js';
import type { WebhookDeleted } from '../contracts/webhooks.js';
import { route } from '../core/http.js';
import { deleteWebhook } from '../domain/webhooks/endpoints.js';

export const handler = route(deleteWebhookRoute, async ({ caller, params }) => {
  await deleteWebhook(caller.userId, params.id ?? '');
  return { deleted: true } satisfies WebhookDeleted;
});
