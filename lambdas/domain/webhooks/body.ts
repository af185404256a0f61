// The body of one delivery attempt, built when it is sent from the ids its workflow carries: the resource as the API
// answers it at that moment (GET /generations/{id}, a job of GET /jobs, GET /batches/{id}, GET /publications/{id}), its URLs signed now, so
// a retry hours later carries working URLs and the state between attempts stays a few hundred bytes.
import { WEBHOOK_TEST_EVENT, type WebhookEvent, type WebhookEventRef, type WebhookEventType } from '../../contracts/webhooks.js';
import { AppError } from '../../core/errors.js';
import { getJob } from '../../data/jobs-repo.js';
import { getBatchView } from '../batch/service.js';
import { getGenerationView } from '../generation/service.js';
import { jobListItems } from '../video/list-items.js';
import { getPublicationView } from '../shopify/views.js';

export const TEST_EVENT_MESSAGE = 'A test event from ModelLoop.';

const missing = (error: unknown) => {
  if (error instanceof AppError && error.status === 404) return undefined;
  throw error;
};

const generation = (userId: string, id: string) => getGenerationView(userId, id).catch(missing);
const batch = (userId: string, id: string) => getBatchView(userId, id).catch(missing);
const publication = (userId: string, id: string) => getPublicationView(userId, id).catch(missing);
async function job(userId: string, id: string) {
  const record = await getJob(userId, id);
  return record ? (await jobListItems([record]))[0] : undefined;
}

/** Each event type's resource, as the API answers it; undefined when it is gone (deleted since). */
const RESOURCE_OF: Record<WebhookEventType, (userId: string, id: string) => Promise<unknown>> = {
  'generation.completed': generation,
  'generation.failed': generation,
  'video.completed': job,
  'video.failed': job,
  'batch.completed': batch,
  'publish.completed': publication,
};

/** The body of one attempt; undefined when the event's resource no longer exists. */
export async function eventBody(userId: string, event: WebhookEventRef): Promise<WebhookEvent | undefined> {
  const data = event.type === WEBHOOK_TEST_EVENT ? { endpoint_id: event.resourceId, message: TEST_EVENT_MESSAGE } : await RESOURCE_OF[event.type](userId, event.resourceId);
  return data === undefined ? undefined : { id: event.id, type: event.type, timestamp: event.timestamp, data };
}
