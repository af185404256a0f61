// The reconciler against the twin's DynamoDB Local: work left in flight past its workflow's timeout is failed and
// refunded exactly once even when two runs race, work still within its timeout is left alone, and a ledger that
// breaks an invariant is reported by user id, never corrected.
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { GENERATION_MESSAGES } from '../../lambdas/contracts/generations.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { WORKFLOW_TIMEOUT_SECONDS } from '../../lambdas/workflows.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { reconcile, refundOrphanedDebits, ORPHAN_DEBIT_AGE_SECONDS, STUCK_MARGIN_SECONDS } = await import('../../lambdas/domain/operations/reconciler.js');
const { spend } = await import('../../lambdas/domain/spending.js');
const credits = await import('../../lambdas/domain/credits.js');
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const generationsRepo = await import('../../lambdas/data/generations-repo.js');
const jobsRepo = await import('../../lambdas/data/jobs-repo.js');
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { tableName } = await import('../../lambdas/data/tables.js');
const batchesRepo = await import('../../lambdas/data/batches-repo.js');

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

async function profiled(): Promise<TestUser> {
  const user = await createUser(twin);
  expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
  return user;
}

async function chargedGeneration(user: TestUser, createdAt: string): Promise<string> {
  const id = `gen-${randomUUID()}`;
  const { entry } = await credits.debit(user.sub, { idempotencyKey: id, amount: 1, description: 'Image generation (2K)', ref: id });
  await generationsRepo.createGeneration({
    user_id: user.sub,
    id,
    generation_type: 'image',
    operation: 'on-model',
    ai_model: 'local-engine',
    status: 'processing',
    credits_used: 1,
    created_at: createdAt,
    params: { prompt: 'model' },
    debit_id: entry.id,
  });
  return id;
}

async function chargedJob(user: TestUser, createdAt: string): Promise<string> {
  const id = `job-${randomUUID()}`;
  const { entry } = await credits.debit(user.sub, { idempotencyKey: id, amount: 1, description: 'Video generation', ref: id });
  await jobsRepo.createJob({
    id,
    user_id: user.sub,
    status: 'generating',
    prompt: 'Pivot',
    operation_name: id,
    video_key: null,
    error_message: null,
    created_at: createdAt,
    updated_at: createdAt,
    duration: 5,
    aspect_ratio: '9:16',
    output_count: 1,
    outputs: [],
    seam_score: null,
    thumbnail_key: null,
    model: null,
    credits_charged: 1,
    credits_refunded: 0,
    source_key: `${user.sub}/source.png`,
    source_mime_type: 'image/png',
    debit_id: entry.id,
    paid_outputs_started: [],
  });
  return id;
}

async function ledgerOf(user: TestUser) {
  const entries = await ledgerRepo.listWholeLedgerItems(user.sub);
  const profile = await ledgerRepo.getProfile(user.sub);
  return { entries, balance: profile!.current_credits, refunds: entries.filter((entry) => entry.transaction_type === 'refund') };
}

describe('reconciler', () => {
  it('fails and refunds once what is in flight past its timeout, even run twice at once; leaves running work alone', async () => {
    const user = await profiled();
    const stuckGeneration = await chargedGeneration(user, ago(WORKFLOW_TIMEOUT_SECONDS.generation + STUCK_MARGIN_SECONDS + 60));
    const stuckJob = await chargedJob(user, ago(WORKFLOW_TIMEOUT_SECONDS.video + STUCK_MARGIN_SECONDS + 60));
    // Within their timeouts: still legitimately running.
    const runningGeneration = await chargedGeneration(user, ago(WORKFLOW_TIMEOUT_SECONDS.generation - 60));
    const runningJob = await chargedJob(user, ago(WORKFLOW_TIMEOUT_SECONDS.generation + STUCK_MARGIN_SECONDS + 60)); // past the image timeout, within the video one

    const [first, second] = await Promise.all([reconcile(), reconcile()]);
    const settledIds = [...first.settled, ...second.settled].map((record) => record.id);
    expect(settledIds).toEqual(expect.arrayContaining([stuckGeneration, stuckJob]));
    expect(settledIds).not.toContain(runningGeneration);
    expect(settledIds).not.toContain(runningJob);

    expect(await generationsRepo.getGeneration(user.sub, stuckGeneration)).toMatchObject({ status: 'failed', error_message: GENERATION_MESSAGES.genericFailure });
    expect(await jobsRepo.getJob(user.sub, stuckJob)).toMatchObject({ status: 'failed', error_message: VIDEO_FAILURE_MESSAGES.timedOut, credits_refunded: 1 });
    expect((await generationsRepo.getGeneration(user.sub, runningGeneration))?.status).toBe('processing');
    expect((await jobsRepo.getJob(user.sub, runningJob))?.status).toBe('generating');

    const { entries, balance, refunds } = await ledgerOf(user);
    expect(refunds.map((entry) => [entry.refund_of, entry.amount]).sort()).toEqual([
      [`debit#${stuckGeneration}`, 1],
      [`debit#${stuckJob}`, 1],
    ].sort());
    expect(balance).toBe(entries.reduce((sum, entry) => sum + entry.amount, 0));

    // A later run finds nothing more to do for this user.
    const again = await reconcile();
    expect(again.settled.map((record) => record.id)).not.toEqual(expect.arrayContaining([stuckGeneration]));
    expect((await ledgerOf(user)).refunds).toHaveLength(2);
  });

  it('summarises a batch whose execution died: the open photo failed and refunded once, the batch complete', async () => {
    const user = await profiled();
    const batchId = `batch-${randomUUID()}`;
    const createdAt = ago(WORKFLOW_TIMEOUT_SECONDS.batch + STUCK_MARGIN_SECONDS + 60);
    const { entry } = await credits.debit(user.sub, { idempotencyKey: batchId, amount: 2, description: 'Batch (2 photos)', ref: batchId });
    const photo = (index: number, status: 'complete' | 'processing') =>
      generationsRepo.createGeneration({
        user_id: user.sub,
        id: batchesRepo.photoIdFor(batchId, index),
        generation_type: 'batch',
        operation: 'batch',
        ai_model: 'local-engine',
        status,
        credits_used: 1,
        created_at: createdAt,
        params: { batchId, cameraAngle: 'Front', prompt: 'model' },
        debit_id: entry.id,
      });
    // One photo was made; the twin died before the other and before the summary.
    await photo(0, 'complete');
    await photo(1, 'processing');
    await batchesRepo.createBatch({
      user_id: user.sub,
      id: batchId,
      status: 'processing',
      created_at: createdAt,
      ai_model: 'local-engine',
      image_size: '1k',
      credits_used: 2,
      debit_id: entry.id,
      entries: [{ clothingItemId: 'item', clothingItemName: 'Tee', prompt: 'model', cameraAngles: ['Front', 'Back'], backdrop: '#FFFFFF' }],
      photo_count: 2,
    });

    await Promise.all([reconcile(), reconcile()]);
    expect(await batchesRepo.getBatch(user.sub, batchId)).toMatchObject({ status: 'complete', summary: { successfulGenerations: 1, failedGenerations: 1 } });
    expect((await generationsRepo.getGeneration(user.sub, batchesRepo.photoIdFor(batchId, 1)))?.status).toBe('failed');
    const { refunds, balance, entries } = await ledgerOf(user);
    expect(refunds.map((refund) => [refund.refund_of, refund.amount])).toEqual([[entry.id, 1]]);
    expect(balance).toBe(entries.reduce((sum, item) => sum + item.amount, 0));
  });

  it('reports a ledger that breaks an invariant by user id and changes nothing', async () => {
    const honest = await profiled();
    const drifted = await profiled();
    await chargedGeneration(honest, new Date().toISOString());
    const before = await ledgerOf(drifted);
    // An entry written around the ledger's one write path: the balance no longer equals the sum of the entries.
    await dynamo.send(
      new PutCommand({
        TableName: tableName('ledger'),
        Item: {
          user_id: drifted.sub,
          id: 'grant#forged',
          seq: before.entries.length + 1,
          description: 'Forged',
          transaction_type: 'purchase',
          amount: 50,
          balance_after: before.balance + 50,
          created_at: new Date().toISOString(),
        },
      }),
    );

    const report = await reconcile();
    const drift = report.drifted.find((entry) => entry.userId === drifted.sub);
    expect(drift?.problems.join('\n')).toContain(`balance ${before.balance}, sum of entries ${before.balance + 50}`);
    expect(report.drifted.map((entry) => entry.userId)).not.toContain(honest.sub);
    expect(report.usersAudited).toBeGreaterThanOrEqual(2);
    expect((await ledgerOf(drifted)).balance).toBe(before.balance);
  });

  it('gives back once a debit whose record was never written, and then refuses that request\'s retry', async () => {
    const user = await profiled();
    const before = (await ledgerOf(user)).balance;
    const request = { userId: user.sub, operation: 'generate-ai-image', idempotencyKey: randomUUID(), body: { prompt: 'cut off' } };
    const recorded: string[] = [];
    const plan = {
      cost: 2,
      description: 'Image generation (4K)',
      record: async (recordId: string) => {
        recorded.push(recordId);
        throw new Error('the request dies between its charge and its record');
      },
      start: async () => {},
    };
    await expect(spend(request, plan)).rejects.toThrow('dies between');
    expect((await ledgerOf(user)).balance).toBe(before - 2);

    // Too young to call orphaned: a request may still be recording it.
    expect((await reconcile()).settled.filter((entry) => entry.userId === user.sub)).toEqual([]);
    // Two runs at once, as if ORPHAN_DEBIT_AGE_SECONDS had passed; the window holds just this debit (other test files
    // share the twin and charge without records of their own).
    const charged = new Date((await ledgerOf(user)).entries.find((entry) => entry.transaction_type === 'debit')!.created_at);
    const since = new Date(charged.getTime() - 1);
    const later = new Date(charged.getTime() + ORPHAN_DEBIT_AGE_SECONDS * 1000);
    const runs = await Promise.all([refundOrphanedDebits(since, later), refundOrphanedDebits(since, later)]);
    expect(runs.flat()).toEqual([{ kind: 'orphaned-debit', userId: user.sub, id: recorded[0] }]);
    const { refunds, balance, entries } = await ledgerOf(user);
    expect(balance).toBe(before);
    expect(refunds.map((refund) => refund.amount)).toEqual([2]);
    expect(balance).toBe(entries.reduce((sum, item) => sum + item.amount, 0));

    // The same request again, with the same key: refused, not served free.
    await expect(spend(request, { ...plan, record: async (recordId: string) => void recorded.push(recordId) })).rejects.toMatchObject({ status: 409, code: 'REQUEST_EXPIRED' });
    expect(recorded).toHaveLength(1);
    expect((await ledgerOf(user)).balance).toBe(before);
  });
});

describe('a failure that ended the record but died before its refund (a kill between the two writes)', () => {
  it('is refunded once by the settling at the twin’s start, however many settle at once, and cancels change nothing after', async () => {
    const user = await profiled();
    const before = (await ledgerOf(user)).balance;
    const jobId = await chargedJob(user, ago(60));
    const generationId = await chargedGeneration(user, ago(60));
    // The workflow's MarkFailed and Fail steps got as far as the records' ends; then the twin was killed (no execution
    // of either exists any more, and nothing refunded them).
    const job = (await jobsRepo.getJob(user.sub, jobId))!;
    expect(await jobsRepo.markJobFailed(user.sub, jobId, VIDEO_FAILURE_MESSAGES.internal, job.credits_charged, new Date().toISOString(), job)).toMatchObject({ status: 'failed' });
    expect(await generationsRepo.failGeneration(user.sub, generationId, GENERATION_MESSAGES.genericFailure)).toMatchObject({ changed: true });
    expect((await ledgerOf(user)).balance).toBe(before - 2);

    // The next start settles what the previous run left: twice at once, with parallel cancels of the failed job.
    const [first, second, ...cancels] = await Promise.all([
      reconcile({ criterion: { kind: 'no-execution' } }),
      reconcile({ criterion: { kind: 'no-execution' } }),
      ...Array.from({ length: 4 }, () => api(twin.apiUrl, 'POST', `/jobs/${jobId}/cancel`, { user })),
    ]);
    const settled = [...first.settled, ...second.settled].filter((entry) => entry.userId === user.sub).map((entry) => entry.id);
    expect(settled).toEqual(expect.arrayContaining([jobId, generationId]));
    for (const cancel of cancels) expect(cancel).toMatchObject({ status: 409, body: { code: 'JOB_FINISHED' } });

    const { refunds, balance, entries } = await ledgerOf(user);
    expect(balance).toBe(before);
    expect(refunds.map((refund) => [refund.ref, refund.amount]).sort()).toEqual([[generationId, 1], [jobId, 1]].sort());
    expect(balance).toBe(entries.reduce((sum, item) => sum + item.amount, 0));
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(before);
    // Settled: they left the in-flight index, so later runs find nothing more to do.
    expect((await jobsRepo.getJob(user.sub, jobId))?.in_flight).toBeUndefined();
    expect((await generationsRepo.getGeneration(user.sub, generationId))?.in_flight).toBeUndefined();
    const again = await reconcile({ criterion: { kind: 'no-execution' } });
    expect(again.settled.filter((entry) => entry.userId === user.sub)).toEqual([]);
    expect((await ledgerOf(user)).refunds).toHaveLength(2);
  }, 120_000);
});
