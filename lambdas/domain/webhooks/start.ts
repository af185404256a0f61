// Starting the delivery of one event to one endpoint: an execution of the webhook-delivery workflow named by both, so
// starting the same event for the same endpoint again is the same execution. The execution carries the event's ids
// only (DESIGN §14, "states carry ids"): a batch.completed of 120 photos with two signed URLs each would pass Step
// Functions' 256 KB state limit, and URLs signed at the event would have expired by a late retry. Each attempt builds
// the body and signs its URLs when it sends (delivery.ts).
import type { WebhookEventRef } from '../../contracts/webhooks.js';
import { startExecution } from '../../core/sfn.js';
import { retryDelays } from './rules.js';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDelivery';

/** The workflow's state: its input, and what each Deliver task hands to the next state. */
export interface DeliveryState {
  userId: string;
  endpointId: string;
  event: WebhookEventRef;
  /** The attempt about to be made (1 = the first). */
  attempt: number;
  /** Seconds before each retry; its length is the number of retries. */
  delays: number[];
  outcome?: 'delivered' | 'retry' | 'exhausted' | 'disabled' | 'dropped';
  /** With outcome 'retry': the Wait state's seconds. */
  waitSeconds?: number;
}

/** The execution input of one delivery. */
export const deliveryInput = (userId: string, endpointId: string, event: WebhookEventRef): DeliveryState => ({ userId, endpointId, event, attempt: 1, delays: retryDelays() });

/** The execution's name: the same event and endpoint is the same execution. */
export const deliveryName = (eventId: string, endpointId: string) => `${eventId}_${endpointId}`.slice(0, 80);

/** Starts the delivery of an event to one endpoint. */
export async function startDelivery(userId: string, endpointId: string, event: WebhookEventRef): Promise<void> {
  await startExecution(WEBHOOK_DELIVERY_WORKFLOW, deliveryName(event.id, endpointId), deliveryInput(userId, endpointId, event));
}
