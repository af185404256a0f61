// Task Deliver of the webhook-delivery workflow: one attempt; the workflow's Wait state spaces the retries.
import { deliverAttempt, type DeliveryState } from '../domain/webhooks/delivery.js';

export const handler = (input: DeliveryState): Promise<DeliveryState> => deliverAttempt(input);
