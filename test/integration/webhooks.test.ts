// Outgoing webhooks on the twin, as a shop's developer would see them: an endpoint registered over the API receives a
// signed delivery that the standardwebhooks library verifies when a real generation completes; a receiver answering
// 500 gets the same event again (same webhook-id) after the first delay of the schedule, and nothing after its 200;
// a 410 disables the endpoint; the test event; the limits; and the cloud's address rules, which refuse a private
// target at registration and at delivery (driven by configuration here, in this process).
import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand } from '@aws-sdk/client-sfn';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Batch } from '../../lambdas/contracts/batch.js';
import { BATCH_CAMERA_ANGLES } from '../../lambdas/contracts/catalog.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import type { JobListItem } from '../../lambdas/contracts/video.js';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookDelivery, type WebhookEndpoint } from '../../lambdas/contracts/webhooks.js';
import { WEBHOOKS_ALLOW_LOCAL_ENV } from '../../lambdas/domain/webhooks/rules.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';
import { generateVideo } from '../support/video.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const twin = inject('twin');
// This process calls the domain directly with the cloud's rules: the twin's handlers run in its own process.
Object.assign(process.env, twin.env);
delete process.env[WEBHOOKS_ALLOW_LOCAL_ENV];
const { createWebhook } = await import('../../lambdas/domain/webhooks/register.js');
const { deliverAttempt } = await import('../../lambdas/domain/webhooks/delivery.js');
const { executionArn, executionStatus, sfn } = await import('../../lambdas/core/sfn.js');
const { deliveryName } = await import('../../lambdas/domain/webhooks/start.js');
const { eventIdOf } = await import('../../lambdas/domain/webhooks/events.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const batchesRepo = await import('../../lambdas/data/batches-repo.js');
const { summaryOf } = await import('../../lambdas/domain/batch/service.js');
const { writeObject } = await import('../../lambdas/storage/objects.js');
const { newId } = await import('../../lambdas/data/ids.js');

/** Step Functions refuses a state input or output (StartExecution's input included) over 256 KB (Step Functions quotas). */
const STEP_FUNCTIONS_STATE_BYTES = 262_144;

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const register = (user: TestUser, url: string, events: string[] = ['generation.completed']) => api(twin.apiUrl, 'POST', '/webhooks', { user, body: { url, events } });
const deliveries = async (user: TestUser): Promise<WebhookDelivery[]> => {
  const answer = await api(twin.apiUrl, 'GET', '/webhooks/deliveries', { user });
  expect(answer.status).toBe(200);
  return answer.body.items;
};
const endpoints = async (user: TestUser): Promise<WebhookEndpoint[]> => (await api(twin.apiUrl, 'GET', '/webhooks', { user })).body.items;
/** The requests that reached one path of the receiver (each test uses its own). */
const at = (path: string) => receiver.received.filter((request) => request.path === path);
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a completed generation reaches a local receiver, signed', () => {
  it('the delivery verifies with the secret shown once, and carries the generation as GET /generations/{id} answers it', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/generation`, ['generation.completed', 'generation.failed']);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { secret, id: endpointId } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await endpoints(user);
    expect(listed).toEqual([{ id: endpointId, url: `${receiver.url}/generation`, events: ['generation.completed', 'generation.failed'], created_at: expect.any(String), disabled_at: null }]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');

    const image = (await tshirtPhoto(400, 500)).toString('base64');
    const started = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { imageData: `data:image/jpeg;base64,${image}`, prompt: 'young female model', productType: 'clothing' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const [delivery] = await until(() => at('/generation'), (requests) => requests.length >= 1, 90_000);
    const event = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as {
      id: string;
      type: string;
      timestamp: string;
      data: Generation;
    };
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(event).toMatchObject({ id: delivery!.headers['webhook-id'], type: 'generation.completed', data: { id: started.body.generationId, status: 'complete' } });
    expect(event.id).toMatch(/^evt_/);
    const { body: generation } = await api<Generation>(twin.apiUrl, 'GET', `/generations/${started.body.generationId}`, { user });
    // Signed URLs (and when they expire) are made per answer: the rest is the same resource.
    const withoutSignatures = ({ url_expires_at: _expires, ...value }: Generation) => ({ ...value, result_url: value.result_url?.split('?')[0], thumbnail_url: value.thumbnail_url?.split('?')[0] });
    expect(withoutSignatures(event.data)).toEqual(withoutSignatures(generation));
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(delivery!.body, delivery!.headers as Record<string, string>)).toThrow();

    const log = await until(() => deliveries(user), (items) => items.length >= 1);
    expect(log).toEqual([
      expect.objectContaining({ event_id: event.id, event_type: 'generation.completed', endpoint_id: endpointId, attempt: 1, status_code: 200, ok: true, error: null }),
    ]);
    expect(at('/generation')).toHaveLength(1);
  });
});

describe('a finished video reaches the receiver as GET /jobs lists it', () => {
  it('carries the job with its poster frame signed and when that URL stops working', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/video`, ['video.completed', 'video.failed']);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = await generateVideo(twin.apiUrl, user, await tshirtPhoto(400, 500), { duration: 5 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);

    const [delivery] = await until(() => at('/video'), (requests) => requests.length >= 1, 150_000);
    const event = new Webhook(created.body.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { type: string; data: JobListItem };
    expect(event.type).toBe('video.completed');
    const { body: jobs } = await api<{ items: JobListItem[] }>(twin.apiUrl, 'GET', '/jobs', { user });
    const listed = jobs.items.find((job) => job.id === started.body.jobId)!;
    const unsigned = ({ url_expires_at: _expires, thumbnail_signed_url, ...job }: JobListItem) => ({ ...job, thumbnail_signed_url: thumbnail_signed_url?.split('?')[0] });
    expect(unsigned(event.data)).toEqual(unsigned(listed));
    expect(event.data).toMatchObject({ id: started.body.jobId, status: 'complete', url_expires_at: expect.any(String) });
    const poster = await fetch(event.data.thumbnail_signed_url!);
    expect(poster.status).toBe(200);
  });
});

describe('retries', () => {
  it('a receiver answering 500 gets the same event again with the same webhook-id, and nothing after its 200', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/retry`);
    expect(created.status).toBe(201);
    receiver.answers.push(500);
    const sent = await api(twin.apiUrl, 'POST', `/webhooks/${created.body.id}/test`, { user });
    expect(sent.status).toBe(202);
    const requests = await until(() => at('/retry'), (found) => found.length >= 2, 30_000);
    const [first, second] = requests;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(first!.headers['webhook-id']).toBe(sent.body.eventId);
    expect(second!.body).toBe(first!.body);
    // The platform waited (the schedule's first delay, 5 s), no function slept through it.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(4_000);
    for (const request of requests) expect(() => new Webhook(created.body.secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    expect(JSON.parse(first!.body)).toMatchObject({ id: sent.body.eventId, type: 'webhook.test', data: { endpoint_id: created.body.id } });

    const execution = executionArn('webhookDelivery', `${sent.body.eventId}_${created.body.id}`);
    await until(() => executionStatus(execution), (status) => status === 'SUCCEEDED');
    expect(at('/retry')).toHaveLength(2);
    const log = await deliveries(user);
    expect(log.map(({ attempt, status_code, ok, event_id }) => ({ attempt, status_code, ok, event_id }))).toEqual([
      { attempt: 2, status_code: 200, ok: true, event_id: sent.body.eventId },
      { attempt: 1, status_code: 500, ok: false, event_id: sent.body.eventId },
    ]);
  });

  it('a 410 Gone disables the endpoint: it is marked, and a test event is refused', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/gone`);
    receiver.answers.push(410);
    expect((await api(twin.apiUrl, 'POST', `/webhooks/${created.body.id}/test`, { user })).status).toBe(202);
    const [endpoint] = await until(() => endpoints(user), (items) => items[0]?.disabled_at !== null);
    expect(endpoint!.disabled_at).toEqual(expect.any(String));
    expect((await deliveries(user))[0]).toMatchObject({ status_code: 410, ok: false });
    expect(await api(twin.apiUrl, 'POST', `/webhooks/${created.body.id}/test`, { user })).toMatchObject({ status: 409, body: { code: 'WEBHOOK_DISABLED' } });
    expect(at('/gone')).toHaveLength(1);
  });
});

describe('endpoints', () => {
  it('at most 5 per user, known events only, and another user never sees, tests or deletes them', async () => {
    const user = await createUser(twin);
    const other = await createUser(twin);
    expect(await register(user, `${receiver.url}/x`, ['generation.completed', 'nope'])).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await register(user, `${receiver.url}/x`, [])).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    const ids: string[] = [];
    for (let index = 0; index < MAX_WEBHOOK_ENDPOINTS; index++) {
      const answer = await register(user, `${receiver.url}/limit-${index}`, ['video.completed', 'video.completed', 'batch.completed']);
      expect(answer.status).toBe(201);
      expect(answer.body.events).toEqual(['video.completed', 'batch.completed']);
      ids.push(answer.body.id);
    }
    expect(await register(user, `${receiver.url}/limit-6`)).toMatchObject({ status: 409, body: { code: 'WEBHOOK_LIMIT_REACHED' } });
    expect(await endpoints(other)).toEqual([]);
    expect((await api(twin.apiUrl, 'DELETE', `/webhooks/${ids[0]}`, { user: other })).status).toBe(404);
    expect((await api(twin.apiUrl, 'POST', `/webhooks/${ids[0]}/test`, { user: other })).status).toBe(404);
    expect((await api(twin.apiUrl, 'DELETE', `/webhooks/${ids[0]}`, { user })).status).toBe(200);
    expect((await api(twin.apiUrl, 'DELETE', `/webhooks/${ids[0]}`, { user })).status).toBe(404);
    expect((await register(user, `${receiver.url}/limit-6`)).status).toBe(201);
    expect(await deliveries(other)).toEqual([]);
  });

  it('holds the limit of 5 under 8 parallel registrations, and a deleted one frees its place', async () => {
    const user = await createUser(twin);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => register(user, `${receiver.url}/parallel-${index}`)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(refused).toMatchObject({ status: 409, body: { code: 'WEBHOOK_LIMIT_REACHED', error: 'You can have at most 5 webhook endpoints. Delete one first.' } });
    }
    const listed = await endpoints(user);
    expect(listed).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    // Parallel deletes of one endpoint free one place, not more.
    await Promise.all(Array.from({ length: 4 }, () => api(twin.apiUrl, 'DELETE', `/webhooks/${listed[0]!.id}`, { user })));
    const again = await Promise.all(Array.from({ length: 4 }, (_, index) => register(user, `${receiver.url}/again-${index}`)));
    expect(again.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(await endpoints(user)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });

  it('on the twin http://localhost is allowed, a private or metadata address is still refused', async () => {
    const user = await createUser(twin);
    expect((await register(user, `http://localhost:${receiver.port}/local`)).status).toBe(201);
    expect(await register(user, 'http://10.0.0.7/hooks')).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_NOT_ALLOWED' } });
    expect(await register(user, 'http://169.254.169.254/latest/meta-data/')).toMatchObject({ status: 400, body: { code: 'WEBHOOK_URL_NOT_ALLOWED' } });
  });
});

describe('the cloud rules (no local allowance in this process)', () => {
  it('refuse a loopback or private target at registration', async () => {
    const userId = `cloud-${randomUUID()}`;
    await expect(createWebhook(userId, { url: `${receiver.url}/cloud`, events: ['generation.completed'] })).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_HTTPS' });
    await expect(createWebhook(userId, { url: 'https://localhost/hooks', events: ['generation.completed'] })).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
    await expect(createWebhook(userId, { url: 'https://10.0.0.7/hooks', events: ['generation.completed'] })).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
    await expect(createWebhook(userId, { url: 'https://[fd00::7]/hooks', events: ['generation.completed'] })).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
  });

  it('refuse it at delivery too: the attempt is recorded as refused, retried later, and nothing reaches the target', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/cloud-delivery`);
    expect(created.status).toBe(201);
    const event = { id: `evt_${randomUUID().replaceAll('-', '')}`, type: 'webhook.test' as const, timestamp: new Date().toISOString(), resourceId: created.body.id };
    const state = { userId: user.sub, endpointId: created.body.id, event, attempt: 1, delays: [5, 300] };
    const next = await deliverAttempt(state, { local: false });
    expect(next).toMatchObject({ outcome: 'retry', attempt: 2, waitSeconds: 5 });
    const last = await deliverAttempt({ ...state, attempt: 3 }, { local: false });
    expect(last).toMatchObject({ outcome: 'exhausted' });
    expect(at('/cloud-delivery')).toHaveLength(0);
    const log = await deliveries(user);
    expect(log.map(({ attempt, status_code, error, ok }) => ({ attempt, status_code, error, ok }))).toEqual([
      { attempt: 3, status_code: null, error: 'ADDRESS_NOT_ALLOWED', ok: false },
      { attempt: 1, status_code: null, error: 'ADDRESS_NOT_ALLOWED', ok: false },
    ]);
  });
});

/** The moment a presigned URL was signed (X-Amz-Date). */
const signedAt = (url: string) => new URL(url).searchParams.get('X-Amz-Date');
type BatchEvent = { id: string; type: string; timestamp: string; data: Batch };

describe('batch.completed of a batch of 120 photos', () => {
  it('its execution carries ids only, far under 256 KB; each attempt builds the 120 photos and signs their URLs when it sends', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/batch-120`, ['batch.completed']);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // 120 finished photos (20 entries × 6 angles) written as the batch workflow leaves them, then the batch completed.
    const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const resultKey = `${user.sub}/results/webhook-batch.png`;
    await writeObject('results', resultKey, picture, 'image/png');
    const batchId = newId();
    const createdAt = new Date().toISOString();
    const entries = Array.from({ length: 20 }, (_, index) => ({ clothingItemId: `item-${index}`, clothingItemName: `Item ${index}`, productType: 'clothing' as const, prompt: 'young female model', cameraAngles: [...BATCH_CAMERA_ANGLES], backdrop: '#FFFFFF' }));
    const rows = entries.flatMap((entry, entryIndex) => entry.cameraAngles.map((cameraAngle) => ({ entryIndex, cameraAngle })));
    expect(rows).toHaveLength(120);
    for (let at = 0; at < rows.length; at += 20) {
      await Promise.all(
        rows.slice(at, at + 20).map(({ entryIndex, cameraAngle }, offset) =>
          generationsRepo.createGeneration({
            user_id: user.sub,
            id: batchesRepo.photoIdFor(batchId, at + offset),
            generation_type: 'batch',
            operation: 'batch',
            ai_model: 'preview-engine',
            status: 'complete',
            credits_used: 1,
            result_key: resultKey,
            thumbnail_key: resultKey,
            result_content_type: 'image/png',
            width: 8,
            height: 8,
            created_at: createdAt,
            completed_at: createdAt,
            params: { batchId, entryIndex, cameraAngle, prompt: 'young female model', backdrop: '#FFFFFF', imageSize: '4k', aspectRatio: '9:16', productType: 'clothing', clothingItemId: `item-${entryIndex}`, clothingItemName: `Item ${entryIndex}` },
          }),
        ),
      );
    }
    await batchesRepo.createBatch({
      user_id: user.sub,
      id: batchId,
      status: 'processing',
      created_at: createdAt,
      ai_model: 'preview-engine',
      image_size: '4k',
      aspect_ratio: '9:16',
      credits_used: 120,
      debit_id: `debit#${batchId}`,
      entries,
      photo_count: 120,
    });
    receiver.answers.push(500);
    expect(await batchesRepo.completeBatch(user.sub, batchId, summaryOf(120, 0))).toBe(true);

    const [first, second] = await until(() => at('/batch-120'), (requests) => requests.length >= 2, 60_000);
    const verify = (request: typeof first) => new Webhook(created.body.secret).verify(request!.body, request!.headers as Record<string, string>) as BatchEvent;
    const [tried, retried] = [verify(first), verify(second)];
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(retried).toMatchObject({ id: tried.id, type: 'batch.completed', timestamp: tried.timestamp, data: { id: batchId, status: 'complete', progress: { done: 120, failed: 0, total: 120 } } });
    expect(retried.data.photos).toHaveLength(120);
    // The retry came after the schedule's first delay, with every URL signed when it was sent, not when the batch ended.
    for (const [index, photo] of retried.data.photos!.entries()) {
      const before = tried.data.photos![index]!.generation;
      expect(signedAt(photo.generation.result_url!)! > signedAt(before.result_url!)!, `photo ${index}`).toBe(true);
      expect(signedAt(photo.generation.thumbnail_url!)! > signedAt(before.thumbnail_url!)!, `photo ${index}`).toBe(true);
    }
    const last = await fetch(retried.data.photos![119]!.generation.result_url!);
    expect(last.status).toBe(200);
    expect(Buffer.from(await last.arrayBuffer()).equals(picture)).toBe(true);

    // What Step Functions was given: the ids, a few hundred bytes whatever the batch's size.
    const eventId = eventIdOf({ type: 'batch.completed', userId: user.sub, resourceId: batchId, table: 'batches' });
    expect(tried.id).toBe(eventId);
    const execution = executionArn('webhookDelivery', deliveryName(eventId, created.body.id));
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: execution }));
    const input = described.input!;
    expect(Buffer.byteLength(input, 'utf8')).toBeLessThanOrEqual(STEP_FUNCTIONS_STATE_BYTES);
    expect(Buffer.byteLength(input, 'utf8')).toBeLessThan(1024);
    expect(input).not.toContain('http');
    expect(JSON.parse(input)).toMatchObject({ userId: user.sub, endpointId: created.body.id, attempt: 1, event: { id: eventId, type: 'batch.completed', resourceId: batchId, timestamp: tried.timestamp } });
    await until(() => executionStatus(execution), (status) => status === 'SUCCEEDED');
    expect(at('/batch-120')).toHaveLength(2);
  });

  it('a real batch, end to end: one signed batch.completed whose photo is the one GET /batches/{id} shows', async () => {
    const user = await createUser(twin);
    const created = await register(user, `${receiver.url}/batch-real`, ['batch.completed']);
    expect(created.status).toBe(201);
    const product = await tshirtPhoto(400, 500);
    const { body: upload } = await api(twin.apiUrl, 'POST', '/clothing-items/upload-url', {
      user,
      body: { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: product.length },
    });
    expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: product })).status).toBe(200);
    const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.imageKey, name: 'Red tee' } });
    expect(item.status).toBe(201);
    const started = await api(twin.apiUrl, 'POST', '/generate-batch', {
      user,
      body: { batchItems: [{ clothingItemId: item.body.id, cameraAngles: ['Front'] }], imageSize: '1k' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);

    const [delivery] = await until(() => at('/batch-real'), (requests) => requests.length >= 1, 120_000);
    const event = new Webhook(created.body.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as BatchEvent;
    expect(event).toMatchObject({ type: 'batch.completed', data: { id: started.body.batchId, status: 'complete', summary: { successfulGenerations: 1, failedGenerations: 0 } } });
    const { body: batch } = await api<Batch>(twin.apiUrl, 'GET', `/batches/${started.body.batchId}`, { user });
    expect(event.data.photos!.map((photo) => photo.generation.result_url!.split('?')[0])).toEqual(batch.photos!.map((photo) => photo.generation.result_url!.split('?')[0]));
    expect((await fetch(event.data.photos![0]!.generation.result_url!)).status).toBe(200);
  });
});
