// A twin that survives a hard kill: `npm start`'s process (bin/local.ts) is started on its own data folder with
// every workflow task held back, an image generation and a video job are charged and left in flight, and the whole
// process tree is killed with SIGKILL. Started again on the same folder, the twin finds both records in flight with
// no execution (the previous run's executions died with it) and, before serving, fails and refunds each exactly
// once; a further clean restart refunds nothing more.
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { GENERATION_MESSAGES } from '../../lambdas/contracts/generations.js';
import { VIDEO_FAILURE_MESSAGES } from '../../lambdas/contracts/video.js';
import { LOCAL_TASK_DELAY_MS_ENV } from '../../lib/local/stepfunctions.js';
import { createUser, signIn } from '../../lib/local/users.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { exited, killTree, startTwinProcess, type TwinProcess } from '../support/twin-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-hard-kill-'));
let running: ChildProcess | undefined;

async function startNpmStart(extraEnv: Record<string, string> = {}): Promise<TwinProcess> {
  const started = await startTwinProcess({ dataDir, env: extraEnv });
  running = started.child;
  return started;
}

afterAll(async () => {
  if (running) {
    killTree(running, 'SIGKILL');
    await exited(running);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start after a SIGKILL in the middle of an image generation and a video job', () => {
  it('fails and refunds each exactly once before serving, and never again', async () => {
    // Every task starts ten minutes late: both records stay in flight until the kill.
    const first = await startNpmStart({ [LOCAL_TASK_DELAY_MS_ENV]: '600000' });
    const email = `hard-kill-${randomUUID().slice(0, 8)}@example.com`;
    let user = await createUser(first.info, email);
    const { info } = first;
    expect((await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS);

    const product = await tshirtPhoto(400, 480);
    const image = await api(info.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { imageData: `data:image/jpeg;base64,${product.toString('base64')}`, prompt: 'young female model' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(image.status, JSON.stringify(image.body)).toBe(200);
    const video = await api(info.apiUrl, 'POST', '/generate-video', {
      user,
      body: { imageBase64: product.toString('base64'), prompt: 'Pivot', output_count: 1 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(video.status, JSON.stringify(video.body)).toBe(200);
    const generationId = image.body.generationId as string;
    const jobId = video.body.jobId as string;
    const charged = (await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits as number;
    expect(charged).toBeLessThan(SIGNUP_CREDITS);
    expect((await api(info.apiUrl, 'GET', `/generations/${generationId}`, { user })).body.status).toBe('processing');

    killTree(first.child, 'SIGKILL');
    await exited(first.child);

    const second = await startNpmStart();
    user = await signIn(second.info, email);
    let { apiUrl } = second.info;
    const expectSettledOnce = async () => {
      const generation = await api(apiUrl, 'GET', `/generations/${generationId}`, { user });
      expect(generation.body).toMatchObject({ status: 'failed', error_message: GENERATION_MESSAGES.genericFailure });
      const jobs = await api(apiUrl, 'GET', '/jobs', { user });
      expect(jobs.body.items).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: jobId, status: 'failed', error_message: VIDEO_FAILURE_MESSAGES.internal })]),
      );
      const profile = await api(apiUrl, 'GET', '/profile', { user });
      expect(profile.body.current_credits).toBe(SIGNUP_CREDITS);
      const ledger = await api(apiUrl, 'GET', '/credit-transactions', { user });
      const entries = ledger.body.items as { transaction_type: string; amount: number }[];
      const debits = entries.filter((entry) => entry.transaction_type === 'debit');
      const refunds = entries.filter((entry) => entry.transaction_type === 'refund');
      expect(debits).toHaveLength(2);
      expect(refunds.map((entry) => entry.amount).sort()).toEqual(debits.map((entry) => -entry.amount).sort());
    };
    await expectSettledOnce();

    // A clean stop and another start: nothing is in flight any more, nothing is refunded again.
    killTree(second.child, 'SIGTERM');
    await exited(second.child);
    const third = await startNpmStart();
    user = await signIn(third.info, email);
    apiUrl = third.info.apiUrl;
    await expectSettledOnce().catch((error: unknown) => {
      throw new Error(`${String(error)}\n--- npm start output:\n${third.output()}`);
    });
    killTree(third.child, 'SIGTERM');
    await exited(third.child);
    running = undefined;
  }, 720_000);
});
