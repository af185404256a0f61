// The routes' side of webhooks besides registration (register.ts): list, delete, the delivery log and "send test event".
import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_LOG_SIZE,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookTestSent,
} from '../../contracts/webhooks.js';
import { AppError, notFound } from '../../core/errors.js';
import * as repo from '../../data/webhooks-repo.js';
import { startDelivery } from './start.js';

export const toEndpoint = (record: repo.WebhookEndpointRecord): WebhookEndpoint => ({
  id: record.id,
  url: record.url,
  events: record.events,
  created_at: record.created_at,
  disabled_at: record.disabled_at ?? null,
});

const toDelivery = (record: repo.WebhookAttemptRecord): WebhookDelivery => ({
  id: record.id,
  event_id: record.event_id,
  event_type: record.event_type,
  endpoint_id: record.endpoint_id,
  url: record.url,
  attempt: record.attempt,
  status_code: record.status_code ?? null,
  error: record.error ?? null,
  ok: record.ok,
  created_at: record.created_at,
});

export async function listWebhooks(userId: string): Promise<WebhookEndpoint[]> {
  const records = await repo.listEndpoints(userId);
  return records.sort((a, b) => a.created_at.localeCompare(b.created_at)).map(toEndpoint);
}

export async function deleteWebhook(userId: string, id: string): Promise<void> {
  if (!(await repo.deleteEndpoint(userId, id))) throw notFound('This webhook endpoint was not found.');
}

export async function listDeliveries(userId: string): Promise<WebhookDelivery[]> {
  return (await repo.listAttempts(userId, WEBHOOK_LOG_SIZE)).map(toDelivery);
}

export async function sendTestEvent(userId: string, id: string): Promise<WebhookTestSent> {
  const endpoint = await repo.getEndpoint(userId, id);
  if (!endpoint) throw notFound('This webhook endpoint was not found.');
  if (endpoint.disabled_at) throw new AppError(409, 'WEBHOOK_DISABLED', 'This endpoint was disabled after it answered 410 Gone. Add it again to use it.');
  const eventId = `evt_${randomBytes(12).toString('hex')}`;
  await startDelivery(userId, id, { id: eventId, type: WEBHOOK_TEST_EVENT, timestamp: new Date().toISOString(), resourceId: id });
  return { eventId, message: 'Test event sent. It appears in the delivery log within a few seconds.' };
}
