// Running-work caps under parallel requests, over HTTP against the twin: a charge takes its record's place under the
// caller's cap in the same transaction (domain/limits.ts, data/limits-repo.ts), and the end of the work — complete,
// failed, cancelled — gives it back. Twenty parallel submissions never have more pieces of work running at once than
// the cap allows, every refusal is a 429 with the screen's message, the places are all given back once everything
// has ended, and every ledger still equals its balance. A place whose release was lost is given back by the reconciler.
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { RUNNING_LIMIT_MESSAGES, USER_LIMITS, type RunningLimitName } from '../../lambdas/contracts/catalog.js';
import { CANCELLED_BY_USER } from '../../lambdas/contracts/video.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api, type ApiAnswer } from '../support/api.js';
import { moneyChecks } from '../support/money.js';
import { addClothingItem } from '../support/sources.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { expectLedgerMatchesBalance, post } = moneyChecks(twin.apiUrl);
const limitsRepo = await import('../../lambdas/data/limits-repo.js');
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { tableName } = await import('../../lambdas/data/tables.js');
const { reconcile } = await import('../../lambdas/domain/operations/reconciler.js');

const PARALLEL = 20;
const FAIL = '[local-engine: fail]';

let product: Buffer;
beforeAll(async () => {
  product = await tshirtPhoto(600, 700);
});

async function buy(user: TestUser, credits: number): Promise<void> {
  const answer = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': randomUUID() } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** Fires `count` submissions at once; every answer is an acceptance or the cap's 429, never anything else. */
async function submitInParallel(kind: RunningLimitName, count: number, submit: (index: number) => Promise<ApiAnswer>): Promise<ApiAnswer[]> {
  const answers = await Promise.all(Array.from({ length: count }, (_, index) => submit(index)));
  for (const answer of answers) {
    if (answer.status === 200) continue;
    expect(answer.status, JSON.stringify(answer.body)).toBe(429);
    expect(answer.body).toEqual({ code: 'TOO_MANY_RUNNING', error: RUNNING_LIMIT_MESSAGES[kind](USER_LIMITS.running[kind]) });
  }
  return answers.filter((answer) => answer.status === 200);
}

/** The most intervals [start, end] open at one instant. */
function mostAtOnce(intervals: { start: string; end: string }[]): number {
  const events = intervals.flatMap(({ start, end }) => [
    { at: Date.parse(start), step: 1 },
    { at: Date.parse(end), step: -1 },
  ]);
  // At the same instant an end comes before a start: a place given back may be taken at once.
  events.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let most = 0;
  for (const { step } of events) most = Math.max(most, (open += step));
  return most;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/**
 * The caller's running places of `kind` once they are `expected`, or as they are after 30 s: work gives its place
 * back a moment after it writes its end (a place held that moment longer only makes the cap stricter).
 */
async function placesOnceSettled(userId: string, kind: string, expected: string[]): Promise<string[]> {
  const want = JSON.stringify([...expected].sort());
  const deadline = Date.now() + 30_000;
  for (;;) {
    const places = (await limitsRepo.listRunning(userId, kind)).sort();
    if (JSON.stringify(places) === want || Date.now() > deadline) return places;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const ended = <T extends { status: string }>(body: T) => (['processing', 'generating'].includes(body.status) ? undefined : body);

/** The job as the recent-jobs list shows it, once it has ended. */
async function endedJob(user: TestUser, jobId: string) {
  const { status, body } = await api(twin.apiUrl, 'GET', '/jobs', { user });
  expect(status, JSON.stringify(body)).toBe(200);
  const job = (body.items as { id: string; status: string; created_at: string; updated_at: string }[]).find((item) => item.id === jobId);
  return job && ended(job);
}

describe('running-work caps under parallel requests', () => {
  it('batches: 20 parallel 2-photo batches never run more than 3 at once; failed ones give their place back too', async () => {
    const user = await createUser(twin);
    await buy(user, 60);
    const item = await addClothingItem(twin.apiUrl, user, product);
    const accepted = await submitInParallel('batch', PARALLEL, (index) =>
      post(user, '/generate-batch', {
        batchItems: [{ clothingItemId: item.id, prompt: index % 3 === 0 ? `model ${FAIL}` : 'model', cameraAngles: ['Front', 'Back'], backdrop: 'white' }],
        aiModel: 'modelloop-studio',
        imageSize: '1k',
      }),
    );
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(PARALLEL);
    const batches = await Promise.all(
      accepted.map((answer) =>
        until(`batch ${answer.body.batchId}`, async () => {
          const { body } = await api(twin.apiUrl, 'GET', `/batches/${answer.body.batchId}`, { user });
          return body.summary ? body : undefined;
        }),
      ),
    );
    expect(mostAtOnce(batches.map((batch) => ({ start: batch.created_at, end: batch.completed_at })))).toBeLessThanOrEqual(USER_LIMITS.running.batch);
    expect(await placesOnceSettled(user.sub, 'batch', [])).toEqual([]);
    await expectLedgerMatchesBalance(user);
  }, 330_000);

  it('videos: 20 parallel videos never run more than 5 at once; a cancelled one gives its place back at once', async () => {
    const user = await createUser(twin);
    await buy(user, 40);
    const image = product.toString('base64');

    // Cancelled one round trip after it was accepted: its render (seconds of ffmpeg for 16 s of video) cannot have
    // ended by then, so the job is certainly still generating and the cancel must answer 200.
    const first = await post(user, '/generate-video', { imageBase64: image, prompt: 'Pivot', duration: 16 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cancelled = first.body.jobId as string;
    expect(await limitsRepo.listRunning(user.sub, 'video')).toEqual([cancelled]);
    const cancel = await api(twin.apiUrl, 'POST', `/jobs/${cancelled}/cancel`, { user });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).toMatchObject({ id: cancelled, status: 'failed', error_message: CANCELLED_BY_USER });
    // Given back by the time the cancel answers, not when the stopped workflow gets round to ending.
    expect(await limitsRepo.listRunning(user.sub, 'video')).toEqual([]);

    const accepted = await submitInParallel('video', PARALLEL, () => post(user, '/generate-video', { imageBase64: image, prompt: 'Pivot', duration: 5 }));
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(USER_LIMITS.running.video);

    const jobs = await Promise.all(
      [cancelled, ...accepted.map((answer) => answer.body.jobId as string)].map((jobId) => until(`job ${jobId}`, () => endedJob(user, jobId))),
    );
    expect(jobs[0]).toMatchObject({ status: 'failed' });
    expect(mostAtOnce(jobs.map((job) => ({ start: job.created_at, end: job.updated_at })))).toBeLessThanOrEqual(USER_LIMITS.running.video);
    expect(await placesOnceSettled(user.sub, 'video', [])).toEqual([]);
    await expectLedgerMatchesBalance(user);
  }, 330_000);

  it('images: with 98 of 100 places taken, 20 parallel images run at most 2 at once, failed ones included', async () => {
    const user = await createUser(twin);
    await buy(user, 30);
    const item = await addClothingItem(twin.apiUrl, user, product);
    // 98 pieces of work already running (their places taken as a charge takes them).
    const running = Array.from({ length: USER_LIMITS.running.image - 2 }, () => `other-${randomUUID()}`);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('limits'),
        Key: { id: `running#${user.sub}#image` },
        UpdateExpression: 'ADD holders :running',
        ExpressionAttributeValues: { ':running': new Set(running) },
      }),
    );
    const accepted = await submitInParallel('image', PARALLEL, (index) =>
      post(user, '/generate-ai-image', { clothingItemId: item.id, productType: 'clothing', prompt: index % 2 ? `model ${FAIL}` : 'model', imageSize: '1k' }),
    );
    expect(accepted.length).toBeGreaterThan(0);
    const generations = await Promise.all(
      accepted.map((answer) =>
        until(`generation ${answer.body.generationId}`, async () => {
          const { body } = await api(twin.apiUrl, 'GET', `/generations/${answer.body.generationId}`, { user });
          return ended(body);
        }),
      ),
    );
    expect(mostAtOnce(generations.map((generation) => ({ start: generation.created_at, end: generation.completed_at })))).toBeLessThanOrEqual(2);
    expect(await placesOnceSettled(user.sub, 'image', running)).toEqual(running.sort());
    for (const holder of running) await limitsRepo.releaseRunning(user.sub, 'image', holder);
    expect(await limitsRepo.listRunning(user.sub, 'image')).toEqual([]);
    await expectLedgerMatchesBalance(user);
  }, 330_000);

  it('a place whose release was lost (the work ended, the place still taken) is given back by the reconciler', async () => {
    const user = await createUser(twin);
    const started = await post(user, '/generate-video', { imageBase64: product.toString('base64'), prompt: 'Pivot', duration: 5 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const jobId = started.body.jobId as string;
    await until(`job ${jobId}`, () => endedJob(user, jobId));
    expect(await placesOnceSettled(user.sub, 'video', [])).toEqual([]);
    // The release lost to a crash between the job's end and the place's release.
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('limits'),
        Key: { id: `running#${user.sub}#video` },
        UpdateExpression: 'ADD holders :job',
        ExpressionAttributeValues: { ':job': new Set([jobId]) },
      }),
    );
    const report = await reconcile();
    expect(report.settled).toContainEqual({ kind: 'running-place:video', userId: user.sub, id: jobId });
    expect(await limitsRepo.listRunning(user.sub, 'video')).toEqual([]);
    await expectLedgerMatchesBalance(user);
  }, 240_000);
});
