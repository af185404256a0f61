// Ledger throughput on the local twin (DynamoDB Local): concurrent debits on one user (every debit contends for the
// same profile item) and across many users (no contention), then the invariant: balance = sum of the ledger.
// Run: npm run bench:ledger
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTwin } from '../lib/local/twin.js';

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-ledger-'));
const twin = await startTwin({ dataDir });
const credits = await import('../lambdas/domain/credits.js');
const repo = await import('../lambdas/data/credits-repo.js');

async function newFundedUser(amount: number): Promise<string> {
  const userId = randomUUID();
  await credits.ensureProfile({ userId, email: `${userId}@bench.local`, signedInAt: new Date().toISOString() });
  await credits.purchase(userId, { paymentId: `bench-${userId}`, credits: amount, description: 'Bench funds' });
  return userId;
}

/** Runs `total` debits of 1 with at most `concurrency` in flight; returns successes and seconds taken. */
async function debitMany(users: string[], total: number, concurrency: number) {
  let next = 0;
  let succeeded = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const userId = users[index % users.length]!;
        try {
          await credits.debit(userId, { idempotencyKey: `bench-${index}`, amount: 1, description: 'Bench debit', ref: `bench-${index}` });
          succeeded++;
        } catch {
          refused++;
        }
      }
    }),
  );
  return { succeeded, refused, seconds: (performance.now() - started) / 1000 };
}

async function invariantHolds(userId: string): Promise<boolean> {
  const profile = await repo.getProfile(userId);
  const entries = await repo.listWholeLedger(userId);
  return profile?.current_credits === entries.reduce((sum, entry) => sum + entry.amount, 0);
}

try {
  console.log('scenario                               debits   concurrency   seconds   debits/s   invariant');
  const report = (name: string, run: { succeeded: number; seconds: number }, concurrency: number, ok: boolean) =>
    console.log(
      `${name.padEnd(38)} ${String(run.succeeded).padStart(6)}   ${String(concurrency).padStart(11)}   ${run.seconds.toFixed(2).padStart(7)}   ${(run.succeeded / run.seconds).toFixed(0).padStart(8)}   ${ok ? 'holds' : 'BROKEN'}`,
    );

  for (const concurrency of [1, 10, 50]) {
    const user = await newFundedUser(200);
    const run = await debitMany([user], 200, concurrency);
    report(`one user`, run, concurrency, await invariantHolds(user));
  }
  const users = await Promise.all(Array.from({ length: 50 }, () => newFundedUser(20)));
  const spread = await debitMany(users, 1000, 50);
  const allHold = (await Promise.all(users.map(invariantHolds))).every(Boolean);
  report('50 users, 20 debits each', spread, 50, allHold);

  const overspend = await newFundedUser(25);
  const race = await debitMany([overspend], 100, 50);
  const balance = (await repo.getProfile(overspend))?.current_credits;
  console.log(`\noverspend race: 100 debits of 1 against 30 credits → ${race.succeeded} succeeded, ${race.refused} refused, balance ${balance}, invariant ${(await invariantHolds(overspend)) ? 'holds' : 'BROKEN'}`);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
