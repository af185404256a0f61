// Starting the delivery of one event to one endpoint: an execution of the webhook-delivery workflow named by both, so
// starting the same event for the same endpoint again is the same execution.
import type { WebhookEvent } from '../../contracts/webhooks.js';
import { startExecution } from '../../core/sfn.js';
import { retryDelays } from './rules.js';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDelivery';

/** The workflow's state: its input, and what each Deliver task hands to the next state. */
export interface DeliveryState {
  userId: string;
  endpointId: string;
  event: WebhookEvent;
  /** The attempt about to be made (1 = the first). */
  attempt: number;
  /** Seconds before each retry; its length is the number of retries. */
  delays: number[];
  outcome?: 'delivered' | 'retry' | 'exhausted' | 'disabled' | 'dropped';
  /** With outcome 'retry': the Wait state's seconds. */
  waitSeconds?: number;
}

/** Starts the delivery of an event to one endpoint; the same event and endpoint is the same execution. */
export async function startDelivery(userId: string, endpointId: string, event: WebhookEvent): Promise<void> {
  const input: DeliveryState = { userId, endpointId, event, attempt: 1, delays: retryDelays() };
  await startExecution(WEBHOOK_DELIVERY_WORKFLOW, `${event.id}_${endpointId}`.slice(0, 80), input);
}

