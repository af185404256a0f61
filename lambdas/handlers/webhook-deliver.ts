// Task Deliver of the webhook-delivery workflow: one attempt; the workflow's Wait state spaces the retries.
import { WebhookDeliveryInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { deliverAttempt, type DeliveryState } from '../domain/webhooks/delivery.js';

// The schema checks the event's envelope; its data is the event type's own (DeliveryState says which).
export const handler = workflowTask('Deliver', WebhookDeliveryInput, (input): Promise<DeliveryState> => deliverAttempt(input as DeliveryState));
