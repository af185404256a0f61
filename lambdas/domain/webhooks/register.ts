// Registering an endpoint: at most MAX_WEBHOOK_ENDPOINTS per user, the address checked, the secret answered once.
import { MAX_WEBHOOK_ENDPOINTS, type CreatedWebhookEndpoint, type WebhookEventType } from '../../contracts/webhooks.js';
import { AppError } from '../../core/errors.js';
import * as repo from '../../data/webhooks-repo.js';
import { checkWebhookUrl } from './address.js';
import { toEndpoint } from './endpoints.js';
import { newSigningSecret } from './rules.js';

export async function createWebhook(userId: string, request: { url: string; events: WebhookEventType[] }): Promise<CreatedWebhookEndpoint> {
  const url = await checkWebhookUrl(request.url);
  const record: repo.WebhookEndpointRecord = {
    user_id: userId,
    id: repo.newEndpointId(),
    url: url.href,
    events: request.events,
    secret: newSigningSecret(),
    created_at: new Date().toISOString(),
  };
  if (!(await repo.putEndpoint(record, MAX_WEBHOOK_ENDPOINTS))) {
    throw new AppError(409, 'WEBHOOK_LIMIT_REACHED', `You can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`);
  }
  return { ...toEndpoint(record), secret: record.secret };
}

