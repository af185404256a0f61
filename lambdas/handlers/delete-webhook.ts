import { Reply, userRoute } from '../core/http.js';
import { deleteWebhook } from '../domain/webhooks/endpoints.js';

export const handler = userRoute({}, async ({ caller, params }) => {
  await deleteWebhook(caller.userId, params.id ?? '');
  return new Reply(200, { deleted: true });
});
