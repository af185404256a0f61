// The credits ledger beside the limit underneath it, in one run on the local twin's DynamoDB Local.
//
// raw:    what the store does for the same logical write with no application code: one 2-item TransactWriteItems on
//         the same tables (the profile item updated in place, its balance checked by the condition; a ledger entry
//         put under a new id), no read first, retried when DynamoDB cancels it for a conflict after the ledger's own
//         backoff (lambdas/core/backoff.ts, imported, so both paths wait alike).
// ledger: the application's debit (lambdas/domain/credits.ts, called in `ledgerDebit` below), with every guarantee it
//         gives (exactly once per entry id, no overspend, exact balance_after).
//
// Scenarios, each on fresh users funded for every debit. The machine may be shared: a ratio of two runs made one after
// the other would measure the load of the moment as much as the code, so each scenario is cut into ROUNDS slices and
// the paths alternate slice by slice (raw, ledger, ledger, raw, …); a path's rate is its debits over its own time.
//   one-user-seq  200 debits of 1 on one user, one at a time;
//   one-user-x50  200 debits of 1 on one user, 50 in flight (every debit contends for the same profile item),
//                 with the p50 and p99 latency of one debit;
//   users-50      1000 debits of 1 over 50 users, 50 in flight (no contention).
// Each row also says how many DynamoDB calls one applied debit took (reads and writes).
// Then the invariants (balance = sum of the ledger, balance_after exact in seq order) and an overspend race.
// Ends with `ratio ledger.one-user-seq X`, `ratio ledger.one-user-x50 X`, `ratio ledger.users-50 X` (ledger/raw
// debits per second) and `p99-ms ledger.one-user-x50 X`.
// Run: npm run bench:ledger
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { startTwin } from '../lib/local/twin.js';
import { jitter, sleep } from '../lambdas/core/backoff.js';

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-ledger-'));
const twin = await startTwin({ dataDir });
// Loaded after the twin set the endpoints and table names in the environment.
const credits = await import('../lambdas/domain/credits.js');
const { dynamo } = await import('../lambdas/data/dynamo.js');
const { tableName } = await import('../lambdas/data/tables.js');
const { GetCommand, QueryCommand, TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');

/** DynamoDB calls made through the application's client (both paths use it), by command. */
const calls = new Map<string, number>();
dynamo.middlewareStack.add(
  (next, context) => (args) => {
    const name = context.commandName ?? 'unknown';
    calls.set(name, (calls.get(name) ?? 0) + 1);
    return next(args);
  },
  { step: 'initialize', name: 'benchCallCounter' },
);
const callCount = () => [...calls.values()].reduce((sum, n) => sum + n, 0);

/** The application's debit of 1 credit. The one place this bench calls the ledger: adapt it if the signature changes. */
async function ledgerDebit(userId: string, key: string): Promise<'applied' | 'refused'> {
  try {
    await credits.debit(userId, { idempotencyKey: key, amount: 1, description: 'Bench debit', ref: key });
    return 'applied';
  } catch (error) {
    // 402 Insufficient credits: a refusal, not a failure.
    if ((error as { status?: number }).status === 402) return 'refused';
    throw error;
  }
}

let rawSeq = 0;

/** The same logical write without application code: the store's limit. */
async function rawDebit(userId: string, key: string): Promise<'applied' | 'refused'> {
  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName('profiles'),
                Key: { id: userId },
                UpdateExpression: 'SET current_credits = current_credits - :amount, ledger_seq = ledger_seq + :one, total_credits_spent = total_credits_spent + :amount',
                ConditionExpression: 'current_credits >= :amount',
                ExpressionAttributeValues: { ':amount': 1, ':one': 1 },
              },
            },
            {
              Put: {
                TableName: tableName('ledger'),
                Item: {
                  user_id: userId,
                  id: `debit#${key}`,
                  // Distinct like the ledger's (by_seq is a local index on it); no read is needed to make one up.
                  seq: ++rawSeq,
                  description: 'Bench debit',
                  transaction_type: 'debit',
                  amount: -1,
                  balance_after: 0,
                  created_at: new Date().toISOString(),
                  ref: key,
                },
                ConditionExpression: 'attribute_not_exists(id)',
              },
            },
          ],
        }),
      );
      return 'applied';
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = error.CancellationReasons?.map((reason) => reason.Code) ?? [];
      if (codes[0] === 'ConditionalCheckFailed') return 'refused';
      if (codes.includes('TransactionConflict')) {
        await sleep(jitter(attempt));
        continue;
      }
      throw error;
    }
  }
}

type DebitFn = (userId: string, key: string) => Promise<'applied' | 'refused'>;

async function newFundedUser(amount: number): Promise<string> {
  const userId = randomUUID();
  await credits.ensureProfile({ userId, email: `${userId}@bench.local`, signedInAt: new Date().toISOString() });
  await credits.purchase(userId, { paymentId: `bench-${userId}`, credits: amount, description: 'Bench funds' });
  return userId;
}

interface Run {
  applied: number;
  refused: number;
  failed: number;
  seconds: number;
  latenciesMs: number[];
  /** DynamoDB calls made during the run. */
  calls: number;
  firstError?: unknown;
}

/** `total` debits of 1 spread over `users`, at most `concurrency` in flight. */
async function debitMany(debit: DebitFn, users: string[], total: number, concurrency: number): Promise<Run> {
  let next = 0;
  const run: Run = { applied: 0, refused: 0, failed: 0, seconds: 0, latenciesMs: [], calls: 0 };
  const callsBefore = callCount();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const userId = users[index % users.length]!;
        const at = performance.now();
        try {
          run[await debit(userId, `bench-${randomUUID()}`)]++;
        } catch (error) {
          run.failed++;
          run.firstError ??= error;
        }
        run.latenciesMs.push(performance.now() - at);
      }
    }),
  );
  run.seconds = (performance.now() - started) / 1000;
  run.calls = callCount() - callsBefore;
  return run;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function ledgerHolds(userId: string): Promise<boolean> {
  const { Item: profile } = await dynamo.send(new GetCommand({ TableName: tableName('profiles'), Key: { id: userId }, ConsistentRead: true }));
  const entries: Array<{ amount: number; seq: number; balance_after: number }> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName('ledger'),
        IndexName: 'by_seq',
        KeyConditionExpression: 'user_id = :user',
        ExpressionAttributeValues: { ':user': userId },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    entries.push(...((page.Items ?? []) as typeof entries));
    start = page.LastEvaluatedKey;
  } while (start);
  const sum = entries.reduce((total, entry) => total + entry.amount, 0);
  let running = 0;
  const exact = entries.every((entry) => (running += entry.amount) === entry.balance_after);
  return profile?.current_credits === sum && exact;
}

/** Slices per scenario; the paths alternate slice by slice. */
const ROUNDS = 4;

function addRun(total: Run | undefined, run: Run): Run {
  if (!total) return run;
  return {
    applied: total.applied + run.applied,
    refused: total.refused + run.refused,
    failed: total.failed + run.failed,
    seconds: total.seconds + run.seconds,
    latenciesMs: [...total.latenciesMs, ...run.latenciesMs],
    calls: total.calls + run.calls,
    firstError: total.firstError ?? run.firstError,
  };
}

const scenarios = [
  { name: 'one-user-seq', users: 1, total: 200, concurrency: 1 },
  { name: 'one-user-x50', users: 1, total: 200, concurrency: 50 },
  { name: 'users-50', users: 50, total: 1000, concurrency: 50 },
] as const;

try {
  const loadAtStart = loadavg()[0]!;
  // Warm-up: connections, handlers, DynamoDB Local's JIT.
  const warm = await newFundedUser(100);
  await debitMany(ledgerDebit, [warm], 50, 5);
  await debitMany(rawDebit, [warm], 50, 5);

  const ratios: Record<string, number> = {};
  let contendedLatencies: number[] = [];
  console.log(`Ledger vs raw TransactWriteItems on DynamoDB Local; load average ${loadAtStart.toFixed(2)} at the start`);
  console.log('| scenario | path | debits | in flight | applied | refused | failed | seconds | debits/s | calls/debit | p50 ms | p99 ms | ledger holds |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|');
  const paths = { raw: rawDebit, ledger: ledgerDebit } as const;
  for (const scenario of scenarios) {
    const runs: Partial<Record<keyof typeof paths, Run>> = {};
    const holds: boolean[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // raw, ledger, ledger, raw, …: each path goes first as often, so neither gets the quieter half of the load.
      const order: (keyof typeof paths)[] = round % 2 === 0 ? ['raw', 'ledger'] : ['ledger', 'raw'];
      for (const path of order) {
        const slice = scenario.total / ROUNDS;
        const users = await Promise.all(Array.from({ length: scenario.users }, () => newFundedUser(slice / scenario.users)));
        runs[path] = addRun(runs[path], await debitMany(paths[path], users, slice, scenario.concurrency));
        if (path === 'ledger') holds.push(...(await Promise.all(users.map(ledgerHolds))));
      }
    }
    const rates: Record<string, number> = {};
    for (const path of ['raw', 'ledger'] as const) {
      const run = runs[path]!;
      rates[path] = run.applied / run.seconds;
      if (path === 'ledger' && scenario.name === 'one-user-x50') contendedLatencies = run.latenciesMs;
      const held = path === 'ledger' ? (holds.every(Boolean) ? 'yes' : 'NO') : '—';
      console.log(
        `| ${scenario.name} | ${path} | ${scenario.total} | ${scenario.concurrency} | ${run.applied} | ${run.refused} | ${run.failed} | ` +
          `${run.seconds.toFixed(2)} | ${rates[path]!.toFixed(0)} | ${(run.calls / Math.max(1, run.applied)).toFixed(2)} | ` +
          `${percentile(run.latenciesMs, 50).toFixed(0)} | ${percentile(run.latenciesMs, 99).toFixed(0)} | ${held} |`,
      );
      if (run.failed > 0) console.log(`  ${run.failed} ${path} debits failed, the first with: ${String(run.firstError)}`);
    }
    ratios[scenario.name] = rates.ledger! / rates.raw!;
  }

  const overspend = await newFundedUser(25); // 30 with the sign-up grant
  const race = await debitMany(ledgerDebit, [overspend], 100, 50);
  const { Item: profile } = await dynamo.send(new GetCommand({ TableName: tableName('profiles'), Key: { id: overspend }, ConsistentRead: true }));
  console.log(
    `\noverspend race: 100 debits of 1 against 30 credits, 50 in flight → ${race.applied} applied, ${race.refused} refused, ` +
      `${race.failed} failed; balance ${profile?.current_credits}; ledger ${(await ledgerHolds(overspend)) ? 'holds' : 'BROKEN'}`,
  );
  console.log(`one debit at 50-way contention on one user: p50 ${percentile(contendedLatencies, 50).toFixed(0)} ms, p99 ${percentile(contendedLatencies, 99).toFixed(0)} ms`);
  console.log('');
  for (const scenario of scenarios) console.log(`ratio ledger.${scenario.name} ${ratios[scenario.name]!.toFixed(2)}`);
  console.log(`p99-ms ledger.one-user-x50 ${percentile(contendedLatencies, 99).toFixed(0)}`);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
