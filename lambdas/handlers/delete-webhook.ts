import '../domain/caller-gate.js';
import type { WebhookDeleted } from '../contracts/webhooks.js';
import { userRoute } from '../core/http.js';
import { deleteWebhook } from '../domain/webhooks/endpoints.js';

export const handler = userRoute({}, async ({ caller, params }) => {
  await deleteWebhook(caller.userId, params.id ?? '');
  return { deleted: true } satisfies WebhookDeleted;
});
