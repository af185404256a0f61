// One delivery attempt of one event to one endpoint, as a task of the webhook-delivery workflow, which waits between
// attempts (a Wait state: the platform keeps time, no function sleeps). The workflow carries the event's ids; the body
// is built and its URLs signed by each attempt (body.ts). Every attempt is recorded; a 2xx ends the
// delivery, a 410 disables the endpoint, anything else (another status, a timeout, a refused or unreachable address)
// is retried after the next delay of the schedule until it runs out.
import { log } from '../../core/log.js';
import * as repo from '../../data/webhooks-repo.js';
import { safeFetch, SafeFetchError, type Resolver } from '../../net/safe-fetch.js';
import { eventBody } from './body.js';
import { localTargetsAllowed, signedHeaders } from './rules.js';
import type { DeliveryState } from './start.js';

export type { DeliveryState } from './start.js';

/** How long a receiver has to answer one attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'ModelLoop-Webhooks/1.0';

export interface DeliveryOptions {
  /** Cloud address rules unless the twin's flag (or this) allows local targets. */
  local?: boolean;
  resolve?: Resolver;
  now?: () => Date;
}

export async function deliverAttempt(state: DeliveryState, options: DeliveryOptions = {}): Promise<DeliveryState> {
  const { userId, endpointId, event, attempt, delays } = state;
  const next = (outcome: NonNullable<DeliveryState['outcome']>, waitSeconds?: number): DeliveryState => ({
    userId,
    endpointId,
    event,
    attempt: attempt + 1,
    delays,
    outcome,
    ...(waitSeconds !== undefined ? { waitSeconds } : {}),
  });
  const endpoint = await repo.getEndpoint(userId, endpointId);
  // Deleted or disabled since the event: nothing more is sent.
  if (!endpoint || endpoint.disabled_at) return next('dropped');
  // Built now, URLs signed now: every attempt carries URLs that work for their full lifetime.
  const body = await eventBody(userId, event);
  if (!body) {
    log.info('webhook event dropped: its resource is gone', { userId, endpointId, eventId: event.id, type: event.type });
    return next('dropped');
  }

  const local = options.local ?? localTargetsAllowed();
  const payload = JSON.stringify(body);
  const at = options.now?.() ?? new Date();
  let statusCode: number | undefined;
  let error: string | undefined;
  try {
    if (new URL(endpoint.url).protocol !== 'https:' && !local) throw new SafeFetchError('ADDRESS_NOT_ALLOWED', 'That address is not allowed');
    const answer = await safeFetch(endpoint.url, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...signedHeaders(endpoint.secret, event.id, at, payload) },
      maxBytes: MAX_RESPONSE_BYTES,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      followRedirects: false,
      allowLoopback: local,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    statusCode = answer.status;
  } catch (failure) {
    if (failure instanceof SafeFetchError) {
      statusCode = failure.details.status;
      error = failure.reason === 'HTTP_ERROR' ? `HTTP ${failure.details.status}` : failure.reason;
    } else {
      error = 'UNREACHABLE';
    }
  }
  const ok = error === undefined;
  await repo.recordAttempt(
    {
      user_id: userId,
      event_id: event.id,
      event_type: event.type,
      endpoint_id: endpointId,
      url: endpoint.url,
      attempt,
      ...(statusCode !== undefined ? { status_code: statusCode } : {}),
      ...(error ? { error } : {}),
      ok,
    },
    at,
  );
  if (ok) return next('delivered');
  if (statusCode === 410) {
    await repo.disableEndpoint(userId, endpointId);
    log.info('webhook endpoint disabled: the receiver answered 410', { userId, endpointId });
    return next('disabled');
  }
  const waitSeconds = delays[attempt - 1];
  if (waitSeconds === undefined) {
    log.warn('webhook delivery given up', { userId, endpointId, eventId: event.id, attempts: attempt, error });
    return next('exhausted');
  }
  return next('retry', waitSeconds);
}
