// Task Deliver of the webhook-delivery workflow: one attempt; the workflow's Wait state spaces the retries.
import { WebhookDeliveryInput } from '../contracts/workflows.js';
import { workflowTask } from '../core/task.js';
import { deliverAttempt, type DeliveryState } from '../domain/webhooks/delivery.js';

export const handler = workflowTask('Deliver', WebhookDeliveryInput, (input): Promise<DeliveryState> => deliverAttempt(input));
