// Outgoing webhooks (Standard Webhooks): the endpoints a user registers, the events they can subscribe to, what each
// delivery carries and the delivery log the API screen shows.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute, SAMPLE_IDS } from './route.js';

/** publish.completed: a publication to Shopify ended (its data says, file by file, what was published where). */
export const WEBHOOK_EVENT_TYPES = ['generation.completed', 'generation.failed', 'video.completed', 'video.failed', 'batch.completed', 'publish.completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by "Send test event"; nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const MAX_WEBHOOK_ENDPOINTS = 5;
/** The delivery log shows this many of the newest attempts. */
export const WEBHOOK_LOG_SIZE = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export const CreateWebhookRequest = /* @__PURE__ */ (() => z.object({
  url: z.string().trim().min(1, 'Enter the address that receives the events.').max(WEBHOOK_URL_MAX_LENGTH, 'That address is too long.'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: 'Unknown event type.' }))
    .min(1, 'Choose at least one event.')
    .transform((events) => [...new Set(events)]),
}))();
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

export const WebhookEndpoint = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  created_at: z.string(),
  /** Set when the receiver answered 410 Gone: nothing is sent to it anymore. */
  disabled_at: z.string().nullable(),
}))();
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The answer of POST /webhooks: the only time the signing secret is shown. */
export const CreatedWebhookEndpoint = /* @__PURE__ */ (() => WebhookEndpoint.extend({ secret: z.string() }))();
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = /* @__PURE__ */ (() => z.object({ items: z.array(WebhookEndpoint) }))();
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** One delivery attempt of one event to one endpoint. */
export const WebhookDelivery = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.string(),
  url: z.string(),
  /** 1 for the first try; a retry of the same event keeps event_id (the webhook-id header). */
  attempt: z.number().int(),
  /** The receiver's HTTP status, or null when no answer came (refused address, timeout, unreachable). */
  status_code: z.number().int().nullable(),
  /** Why the attempt failed, when it did. */
  error: z.string().nullable(),
  ok: z.boolean(),
  created_at: z.string(),
}))();
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = /* @__PURE__ */ (() => z.object({ items: z.array(WebhookDelivery) }))();
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/**
 * The body of every delivery. `data` is the resource as the API answers it (GET /generations/{id}, a job, a batch),
 * read and signed when the attempt is sent: a retry carries the same id and fresh URLs.
 */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  timestamp: string;
  data: unknown;
}

/**
 * What a delivery's workflow carries of its event: ids only, whatever the resource's size (a workflow state holds at
 * most 256 KB). Each attempt builds the WebhookEvent from it.
 */
export interface WebhookEventRef {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  /** When the event happened (the body's timestamp on every attempt). */
  timestamp: string;
  /** The generation, job or batch the event tells of; for webhook.test, the endpoint. */
  resourceId: string;
}

export const WebhookDeleted = /* @__PURE__ */ (() => z.object({ deleted: z.literal(true) }))();
export type WebhookDeleted = z.infer<typeof WebhookDeleted>;

export const WebhookTestSent = /* @__PURE__ */ (() => z.object({ eventId: z.string(), message: z.string() }))();
export type WebhookTestSent = z.infer<typeof WebhookTestSent>;

// ——— Routes (lambdas/contracts/route.ts) ———

export const createWebhookRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/webhooks',
  auth: 'user',
  summary: 'Add a webhook endpoint (its signing secret is in this answer only)',
  body: CreateWebhookRequest,
  response: CreatedWebhookEndpoint,
  status: 201,
  sample: { body: { url: 'http://localhost:4000/webhooks', events: ['generation.completed', 'video.completed'] } },
}))();

export const listWebhooksRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/webhooks', auth: 'user', summary: 'Your webhook endpoints', response: WebhookEndpointList }))();

export const listWebhookDeliveriesRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/webhooks/deliveries',
  auth: 'user',
  summary: 'The latest deliveries to your endpoints',
  response: WebhookDeliveryList,
}))();

export const deleteWebhookRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'DELETE',
  path: '/webhooks/{id}',
  auth: 'user',
  summary: 'Delete a webhook endpoint',
  response: WebhookDeleted,
  sample: { params: { id: SAMPLE_IDS.webhook } },
}))();

export const sendWebhookTestRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/webhooks/{id}/test',
  auth: 'user',
  summary: 'Send a webhook.test event to one endpoint',
  response: WebhookTestSent,
  status: 202,
  sample: { params: { id: SAMPLE_IDS.webhook } },
}))();
