// The chaos suite's money audit, read straight from the twin's DynamoDB (import it after the twin's environment is in
// process.env): every record ended, refunds exactly where something was not delivered, ledgers that add up, and a
// balance that equals grants + purchases − what was delivered.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { CANCELLED_BY_USER } from '../../lambdas/contracts/video-failures.js';
import type { BatchRecord } from '../../lambdas/data/batches-repo.js';
import { getProfile, listWholeLedgerItems, type LedgerItem } from '../../lambdas/data/credits-repo.js';
import { dynamo } from '../../lambdas/data/dynamo.js';
import type { GenerationRecord } from '../../lambdas/data/generations-repo.js';
import type { JobItem } from '../../lambdas/data/jobs-repo.js';
import { tableName, type TableName } from '../../lambdas/data/tables.js';

export async function queryAll<T>(table: TableName, userId: string): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName(table),
        KeyConditionExpression: 'user_id = :user',
        ExpressionAttributeValues: { ':user': userId },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...((page.Items ?? []) as T[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

interface UserRecords {
  generations: GenerationRecord[];
  jobs: JobItem[];
  batches: BatchRecord[];
}

async function recordsOf(userId: string): Promise<UserRecords> {
  const [generations, jobs, batches] = await Promise.all([
    queryAll<GenerationRecord>('generations', userId),
    queryAll<JobItem>('jobs', userId),
    queryAll<BatchRecord>('batches', userId),
  ]);
  // A finished video also appears in the generation history (generation_type 'video'); the job is what was paid.
  return { generations: generations.filter((generation) => generation.generation_type !== 'video'), jobs, batches };
}

function inFlight(records: UserRecords): string[] {
  return [
    ...records.generations.filter((g) => g.status === 'processing').map((g) => `generation ${g.id}`),
    ...records.jobs.filter((j) => j.status === 'generating').map((j) => `job ${j.id}`),
    ...records.batches.filter((b) => b.status !== 'complete').map((b) => `batch ${b.id}`),
  ];
}

/** Waits until no record of these users is in flight; false when the time ran out. */
export async function waitUntilSettled(users: string[], timeoutMs: number, log: (line: string) => void): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let lastReport = 0;
  for (;;) {
    const pending = (await Promise.all(users.map(async (user) => inFlight(await recordsOf(user))))).flat();
    if (pending.length === 0) return true;
    if (Date.now() > deadline) {
      log(`still in flight: ${pending.slice(0, 20).join(', ')}`);
      return false;
    }
    if (Date.now() - lastReport > 15_000) {
      log(`${pending.length} records still in flight`);
      lastReport = Date.now();
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 2000));
  }
}

export interface MoneyAudit {
  records: { generations: number; photos: number; jobs: number; batches: number; failed: number; cancelled: number };
  credits: { granted: number; purchased: number; debited: number; refunded: number; delivered: number; refunds: number };
  violations: string[];
}

export async function auditMoney(users: string[]): Promise<MoneyAudit> {
  const violations: string[] = [];
  const records = { generations: 0, photos: 0, jobs: 0, batches: 0, failed: 0, cancelled: 0 };
  const credits = { granted: 0, purchased: 0, debited: 0, refunded: 0, delivered: 0, refunds: 0 };
  for (const userId of users) {
    const [profile, ledger, own] = await Promise.all([getProfile(userId), listWholeLedgerItems(userId), recordsOf(userId)]);
    const problem = (text: string) => violations.push(`user ${userId}: ${text}`);
    for (const pending of inFlight(own)) problem(`${pending} never ended`);

    // Balance = sum of the ledger.
    const sum = ledger.reduce((total, entry) => total + entry.amount, 0);
    if (!profile) problem('no profile');
    else if (profile.current_credits !== sum) problem(`balance ${profile.current_credits} but the ledger sums to ${sum}`);

    // What each record should have had refunded, and what it delivered.
    const expectedRefunds = new Map<string, { amount: number; debitId: string | undefined; what: string }>();
    let delivered = 0;
    const batchDebit = new Map(own.batches.map((batch) => [batch.id, batch.debit_id]));
    for (const generation of own.generations) {
      const photoOf = generation.operation === 'batch' ? generation.id.replace(/-p\d{3}$/, '') : undefined;
      if (photoOf) records.photos += 1;
      else records.generations += 1;
      const debitId = generation.debit_id ?? (photoOf ? batchDebit.get(photoOf) : undefined);
      if (generation.status === 'complete') delivered += generation.credits_used;
      if (generation.status === 'failed') {
        records.failed += 1;
        if (generation.credits_used > 0) expectedRefunds.set(generation.id, { amount: generation.credits_used, debitId, what: `failed ${generation.operation} ${generation.id}` });
      }
    }
    for (const job of own.jobs) {
      records.jobs += 1;
      const perOutput = job.credits_charged / job.output_count;
      if (job.status === 'failed') {
        if (job.error_message === CANCELLED_BY_USER) records.cancelled += 1;
        else records.failed += 1;
        // The local engine is no paid provider: a failed or cancelled job gives everything back.
        if (job.credits_refunded !== job.credits_charged) problem(`failed job ${job.id} refunds ${job.credits_refunded} of ${job.credits_charged}`);
      }
      if (job.status === 'complete') {
        const expected = job.credits_charged - perOutput * job.outputs.length;
        if (job.credits_refunded !== expected) problem(`job ${job.id} delivered ${job.outputs.length}/${job.output_count} but refunds ${job.credits_refunded}`);
        if (job.outputs.length === 0) problem(`job ${job.id} complete without an output`);
      }
      delivered += job.credits_charged - job.credits_refunded;
      if (job.credits_refunded > 0) expectedRefunds.set(job.id, { amount: job.credits_refunded, debitId: job.debit_id, what: `job ${job.id} (${job.status})` });
    }
    for (const batch of own.batches) {
      records.batches += 1;
      const photos = own.generations.filter((generation) => generation.id.startsWith(`${batch.id}-p`));
      if (photos.length !== batch.photo_count) problem(`batch ${batch.id} has ${photos.length} of ${batch.photo_count} photos`);
    }

    // Refunds: exactly the expected ones, once each, naming the right debit.
    const debits = new Map<string, LedgerItem>();
    const refundedOf = new Map<string, number>();
    const refundsByRef = new Map<string, LedgerItem[]>();
    for (const entry of ledger) {
      if (entry.transaction_type === 'signup_bonus') credits.granted += entry.amount;
      else if (entry.transaction_type === 'purchase') credits.purchased += entry.amount;
      else if (entry.transaction_type === 'debit') {
        credits.debited += -entry.amount;
        debits.set(entry.id, entry);
      } else if (entry.transaction_type === 'refund') {
        credits.refunded += entry.amount;
        credits.refunds += 1;
        const ref = entry.ref ?? entry.id.replace(/^refund#/, '');
        refundsByRef.set(ref, [...(refundsByRef.get(ref) ?? []), entry]);
        if (entry.refund_of) refundedOf.set(entry.refund_of, (refundedOf.get(entry.refund_of) ?? 0) + entry.amount);
        else problem(`refund ${entry.id} names no debit`);
      } else problem(`unexpected ${entry.transaction_type} entry ${entry.id}`);
    }
    for (const [ref, entries] of refundsByRef) {
      const expected = expectedRefunds.get(ref);
      if (!expected) problem(`refund of ${ref} (${entries.map((e) => e.amount).join(', ')}) for nothing that failed`);
      else if (entries.length !== 1) problem(`${expected.what} refunded ${entries.length} times`);
      else if (entries[0]!.amount !== expected.amount) problem(`${expected.what} refunded ${entries[0]!.amount}, expected ${expected.amount}`);
      else if (expected.debitId && entries[0]!.refund_of !== expected.debitId) problem(`${expected.what}'s refund names ${entries[0]!.refund_of}, not ${expected.debitId}`);
    }
    for (const [ref, expected] of expectedRefunds) if (!refundsByRef.has(ref)) problem(`${expected.what} (${ref}) never refunded`);
    for (const [id, debit] of debits) {
      const refunded = refundedOf.get(id) ?? 0;
      if (refunded > -debit.amount) problem(`debit ${id} of ${-debit.amount} refunded ${refunded}`);
      if (debit.refundable !== undefined && debit.refundable !== -debit.amount - refunded) {
        problem(`debit ${id} of ${-debit.amount} refunded ${refunded} says ${debit.refundable} refundable`);
      }
      const recordId = debit.ref;
      const known = recordId && (own.generations.some((g) => g.id === recordId) || own.jobs.some((j) => j.id === recordId) || own.batches.some((b) => b.id === recordId));
      if (!known) problem(`debit ${id} of ${-debit.amount} paid for no record (${recordId ?? 'no ref'})`);
    }
    for (const id of refundedOf.keys()) if (!debits.has(id)) problem(`a refund names ${id}, which is no debit of this user`);

    // No credit lost or created: the balance is what came in less what was delivered.
    credits.delivered += delivered;
    const grants = ledger.filter((e) => e.transaction_type === 'signup_bonus').reduce((t, e) => t + e.amount, 0);
    const purchases = ledger.filter((e) => e.transaction_type === 'purchase').reduce((t, e) => t + e.amount, 0);
    const expectedBalance = grants + purchases - delivered;
    if (profile && profile.current_credits !== expectedBalance) {
      problem(`balance ${profile.current_credits}, expected ${expectedBalance} (grants ${grants} + purchases ${purchases} − delivered ${delivered})`);
    }
  }
  return { records, credits, violations };
}
