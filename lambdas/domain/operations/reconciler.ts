// The reconciler: what nothing else will settle, it settles; what must never drift, it audits.
//
// Stuck work. A generation or video job that is still in flight after its workflow's timeout plus a margin has lost
// its execution's end (the workflow-ended rule's delivery failed, a twin was killed), or ended without its refund (a
// kill between the record's end and its refund: the record keeps `in_flight` until its refund is applied): it is failed and refunded once
// through the same path the workflow's own failure takes (the refund names the debit and is keyed by the record), so
// a second reconciler running at the same time, or the workflow's late end, changes nothing more. On the twin's start
// the criterion is "no execution exists", since a restarted twin has none of the previous run's executions.
//
// Orphaned debits. A debit whose record was never written (the request died between its charge and its record, and
// was never retried) is older than any request can live: it is given back whole, keyed so it happens once, and a late
// retry of that request is then refused (spending.ts) rather than served free.
//
// Running places. A piece of work takes a place under its owner's running-work cap with its charge and gives it back
// when it ends; a place whose work has ended (or whose request was cut off and given back) but which is still held —
// the release was lost to a crash between the two writes — is given back here, for every user who spent within the
// longest workflow's timeout.
//
// Deletions. An account whose deletion was asked but whose profile still says so after the workflow's execution
// ended (failed after its retries, timed out, or died with a twin) gets the deletion's next execution; each step is
// safe to run again. After MAX_DELETION_RESUMES the account is reported for an operator.
//
// Ledger drift. For every user whose ledger moved in the window: the balance is the sum of the entries, each entry's
// balance_after is the running sum, and no debit has been refunded more than it took (its `refundable` is what it
// took less the refunds naming it, never below zero). A drift is reported (metric + an error log naming the user),
// never corrected here: money is only ever moved by ledger entries that say why.
import { GENERATION_MESSAGES } from '../../contracts/generations.js';
import { VIDEO_FAILURE_MESSAGES } from '../../contracts/video.js';
import { log } from '../../core/log.js';
import { emitMetrics } from '../../core/metrics.js';
import { executionArn, executionStatus } from '../../core/sfn.js';
import { getLedgerItem, getProfile, listWholeLedgerItems, type LedgerItem } from '../../data/credits-repo.js';
import { getGeneration } from '../../data/generations-repo.js';
import { getJob } from '../../data/jobs-repo.js';
import { listAccountsDeleting, listDebitKeysBetween, listInFlight, listUsersWithLedgerEntriesSince, unfinishedDeletion } from '../../data/reconcile-repo.js';
import type { TableName } from '../../data/tables.js';
import { WORKFLOW_TIMEOUT_SECONDS, type WorkflowName } from '../../workflows.js';
import { failAndRefund } from '../generation/service.js';
import { failJob } from '../video/settle.js';
import { BATCH_MESSAGES } from '../../contracts/batch.js';
import { getBatch } from '../../data/batches-repo.js';
import { settleBatch } from '../batch/work.js';
import { BATCH_OPERATION } from '../batch/service.js';
import { orphanRefundRef, refund, refundIdOf } from '../credits.js';
import { endRunning } from '../limits.js';
import { listRunning } from '../../data/limits-repo.js';
import type { RunningLimitName } from '../../contracts/catalog.js';
import { MAX_DELETION_RESUMES, resumeDeletion } from '../account/deletion-executions.js';

/** Past its workflow's timeout by this much, a record in flight is stuck (clock skew, the ended rule's retries). */
export const STUCK_MARGIN_SECONDS = 600;

/** When a record in flight counts as stuck. */
export type StuckCriterion =
  /** Created longer ago than its workflow's timeout plus the margin (the scheduled run). */
  | { kind: 'past-timeout'; marginSeconds?: number }
  /** Its execution does not exist (the twin's start: the previous run's executions died with it). */
  | { kind: 'no-execution' };

/**
 * One kind of work that is in flight while its workflow runs: where its rows are, which workflow runs it (the
 * execution is named by the row's id), whether a row is still in flight, and how it is failed and refunded once.
 * A new kind of work (e.g. batch photos) is one more entry: mark its rows `in_flight` (createGeneration/createJob do
 * so for theirs), remove the mark on every transition out, and settle through its own fail-and-refund path.
 */
export interface InFlightKind {
  kind: string;
  table: TableName;
  workflow: WorkflowName;
  stillInFlight(userId: string, id: string): Promise<boolean>;
  settle(userId: string, id: string, criterion: StuckCriterion['kind']): Promise<void>;
}

export const IN_FLIGHT_KINDS: InFlightKind[] = [
  {
    kind: 'generation',
    table: 'generations',
    workflow: 'generation',
    // Processing, or failed without its refund applied yet (a crash between the two): the row keeps in_flight until then.
    stillInFlight: async (userId, id) => (await getGeneration(userId, id))?.in_flight !== undefined,
    settle: async (userId, id) => {
      await failAndRefund(userId, id, GENERATION_MESSAGES.genericFailure);
    },
  },
  {
    kind: 'video',
    table: 'jobs',
    workflow: 'video',
    // Generating, or ended without its refund, place and history settled yet: the job keeps in_flight until then.
    stillInFlight: async (userId, id) => (await getJob(userId, id))?.in_flight !== undefined,
    settle: async (userId, id, criterion) => {
      await failJob(userId, id, criterion === 'past-timeout' ? VIDEO_FAILURE_MESSAGES.timedOut : VIDEO_FAILURE_MESSAGES.internal);
    },
  },
  {
    // After its photos (generations, above): the photos still open are failed and refunded once, the summary written.
    kind: 'batch',
    table: 'batches',
    workflow: 'batch',
    stillInFlight: async (userId, id) => (await getBatch(userId, id))?.status === 'processing',
    settle: async (userId, id) => {
      await settleBatch(userId, id, BATCH_MESSAGES.photoFailed);
    },
  },
];

export interface SettledRecord {
  kind: string;
  userId: string;
  id: string;
}

/** Fails and refunds (once) every record in flight that `criterion` calls stuck; answers the ones it settled. */
export async function settleStuckWork(criterion: StuckCriterion, now = new Date(), kinds = IN_FLIGHT_KINDS): Promise<SettledRecord[]> {
  const settled: SettledRecord[] = [];
  for (const kind of kinds) {
    const before =
      criterion.kind === 'past-timeout'
        ? new Date(now.getTime() - (WORKFLOW_TIMEOUT_SECONDS[kind.workflow] + (criterion.marginSeconds ?? STUCK_MARGIN_SECONDS)) * 1000).toISOString()
        : now.toISOString();
    for (const row of await listInFlight(kind.table, kind.kind, before)) {
      // The index is eventually consistent: the row itself says whether it is still in flight.
      if (!(await kind.stillInFlight(row.user_id, row.id))) continue;
      if (criterion.kind === 'no-execution' && (await executionStatus(executionArn(kind.workflow, row.id))) !== undefined) continue;
      try {
        await kind.settle(row.user_id, row.id, criterion.kind);
      } catch (error) {
        // One record that can't be settled now (the ledger busy, a store down) must not keep the others from it.
        log.error('stuck work not settled: left for the next run', { kind: kind.kind, userId: row.user_id, id: row.id, error });
        continue;
      }
      log.warn('stuck work settled: failed and refunded', { kind: kind.kind, userId: row.user_id, id: row.id, createdAt: row.created_at, criterion: criterion.kind });
      settled.push({ kind: kind.kind, userId: row.user_id, id: row.id });
    }
  }
  return settled;
}

/** A deletion asked this long ago has had its execution started (the request starts it before it answers). */
export const DELETION_START_GRACE_SECONDS = 300;

export interface DeletionFindings {
  resumed: SettledRecord[];
  /** Accounts whose every allowed execution ended without finishing: an operator's turn. */
  abandoned: string[];
}

/** Starts the next execution of each deletion that is not running and not finished (see the header). */
export async function resumeAccountDeletions(criterion: StuckCriterion, now = new Date()): Promise<DeletionFindings> {
  const findings: DeletionFindings = { resumed: [], abandoned: [] };
  const before = criterion.kind === 'past-timeout' ? new Date(now.getTime() - DELETION_START_GRACE_SECONDS * 1000) : now;
  for (const userId of await listAccountsDeleting(before.toISOString())) {
    // The index is eventually consistent: the profile itself says whether the deletion is still unfinished.
    const tombstoneId = await unfinishedDeletion(userId);
    if (!tombstoneId) continue;
    const resume = await resumeDeletion({ userId, tombstoneId });
    if (resume.outcome === 'resumed') {
      log.warn('account deletion resumed: its last execution ended unfinished', { userId, execution: resume.execution });
      findings.resumed.push({ kind: 'account-deletion', userId, id: resume.execution });
    } else if (resume.outcome === 'exhausted') {
      log.error(`account deletion unfinished after ${MAX_DELETION_RESUMES} resumes: an operator must look at its executions`, { userId, tombstoneId });
      findings.abandoned.push(userId);
    }
  }
  return findings;
}

/** A debit this old has outlived any request (API Gateway ends one after 29 s): no record by now means none will come. */
export const ORPHAN_DEBIT_AGE_SECONDS = 300;

/** The running-work cap a charge of this operation took a place under: also which kind of record it paid for. */
function placeKindOf(operation: string | undefined): RunningLimitName {
  if (operation === 'generate-video') return 'video';
  if (operation === BATCH_OPERATION) return 'batch';
  return 'image';
}

/** Whether the record a charge paid for exists, by the kind of its place. */
async function recordExists(kind: RunningLimitName, userId: string, recordId: string): Promise<boolean> {
  if (kind === 'video') return (await getJob(userId, recordId)) !== undefined;
  if (kind === 'batch') return (await getBatch(userId, recordId)) !== undefined;
  return (await getGeneration(userId, recordId)) !== undefined;
}

/** Gives back, once, every debit created in [since, now − ORPHAN_DEBIT_AGE_SECONDS] whose record was never written. */
export async function refundOrphanedDebits(since: Date, now = new Date()): Promise<SettledRecord[]> {
  const refunded: SettledRecord[] = [];
  const until = new Date(now.getTime() - ORPHAN_DEBIT_AGE_SECONDS * 1000);
  if (until <= since) return refunded;
  for (const key of await listDebitKeysBetween(since.toISOString(), until.toISOString())) {
    const debit = await getLedgerItem(key.user_id, key.id);
    if (!debit?.ref || !debit.refundable || (await recordExists(placeKindOf(debit.operation), key.user_id, debit.ref))) continue;
    const done = await refund(key.user_id, {
      debitId: debit.id,
      ref: orphanRefundRef(debit.ref),
      amount: debit.refundable,
      description: 'Refund: the request was cut off before its work began',
    });
    if (!done) continue;
    // The cut-off request's place under the running-work cap goes with its credits (once, whichever run gets here).
    await endRunning(key.user_id, placeKindOf(debit.operation), debit.ref);
    if (done.replayed) continue;
    log.warn('orphaned debit refunded: its record was never written', { userId: key.user_id, debitId: debit.id, amount: debit.refundable });
    refunded.push({ kind: 'orphaned-debit', userId: key.user_id, id: debit.ref });
  }
  return refunded;
}

/** Where the record of each kind of running place lives, and whether it is still running. */
const PLACE_RECORDS: Record<RunningLimitName, InFlightKind> = {
  image: IN_FLIGHT_KINDS.find((kind) => kind.kind === 'generation')!,
  video: IN_FLIGHT_KINDS.find((kind) => kind.kind === 'video')!,
  batch: IN_FLIGHT_KINDS.find((kind) => kind.kind === 'batch')!,
};

/** A place stays taken while its record is in flight, or while its record is missing and its charge not given back. */
async function placeStillTaken(kind: RunningLimitName, userId: string, recordId: string): Promise<boolean> {
  const record = PLACE_RECORDS[kind];
  if (await record.stillInFlight(userId, recordId)) return true;
  if (await recordExists(kind, userId, recordId)) return false;
  return (await getLedgerItem(userId, refundIdOf(orphanRefundRef(recordId)))) === undefined;
}

/**
 * Gives back every running place, of the users who spent since `since`, whose work has ended without giving it back.
 * Places are taken only by charges, so a user who has not spent since the longest workflow's timeout holds none that
 * is still running.
 */
export async function releaseEndedPlaces(since: Date, now = new Date()): Promise<SettledRecord[]> {
  const released: SettledRecord[] = [];
  const users = new Set((await listDebitKeysBetween(since.toISOString(), now.toISOString())).map((key) => key.user_id));
  for (const userId of users) {
    for (const kind of Object.keys(PLACE_RECORDS) as RunningLimitName[]) {
      for (const recordId of await listRunning(userId, kind)) {
        if (await placeStillTaken(kind, userId, recordId)) continue;
        if (!(await endRunning(userId, kind, recordId))) continue;
        log.warn('running place given back: its work had ended without releasing it', { userId, kind, recordId });
        released.push({ kind: `running-place:${kind}`, userId, id: recordId });
      }
    }
  }
  return released;
}

/** How far back spending is looked at for places still held: the longest workflow's timeout, its margin and an hour. */
const PLACE_LOOKBACK_SECONDS = Math.max(WORKFLOW_TIMEOUT_SECONDS.generation, WORKFLOW_TIMEOUT_SECONDS.video, WORKFLOW_TIMEOUT_SECONDS.batch) + STUCK_MARGIN_SECONDS + 3600;

/** What is wrong with one user's ledger; empty when every invariant holds. */
export function ledgerProblems(balance: number, entries: readonly LedgerItem[]): string[] {
  const problems: string[] = [];
  const ordered = [...entries].sort((a, b) => a.seq - b.seq);
  let running = 0;
  for (const entry of ordered) {
    running += entry.amount;
    if (entry.balance_after !== running) problems.push(`entry ${entry.id} (seq ${entry.seq}): balance_after ${entry.balance_after}, running sum ${running}`);
  }
  if (running !== balance) problems.push(`balance ${balance}, sum of entries ${running}`);
  const refunded = new Map<string, number>();
  for (const entry of ordered) {
    if (entry.transaction_type === 'refund' && entry.refund_of) refunded.set(entry.refund_of, (refunded.get(entry.refund_of) ?? 0) + entry.amount);
  }
  const debits = new Map(ordered.filter((entry) => entry.transaction_type === 'debit').map((entry) => [entry.id, entry]));
  for (const [debitId, amount] of refunded) {
    const debit = debits.get(debitId);
    if (!debit) {
      problems.push(`refunds of ${amount} name debit ${debitId}, which does not exist`);
      continue;
    }
    if (amount > -debit.amount) problems.push(`debit ${debitId} of ${-debit.amount} refunded ${amount}`);
  }
  for (const debit of debits.values()) {
    if (debit.refundable === undefined) continue;
    const expected = -debit.amount - (refunded.get(debit.id) ?? 0);
    if (debit.refundable < 0 || debit.refundable !== expected) {
      problems.push(`debit ${debit.id}: refundable ${debit.refundable}, expected ${expected}`);
    }
  }
  return problems;
}

/** One user's ledger problems, read so that a write landing during the read is not taken for a drift. */
export async function auditUser(userId: string): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const before = await listWholeLedgerItems(userId);
    const profile = await getProfile(userId);
    const after = await listWholeLedgerItems(userId);
    // A ledger entry and its balance change commit together: the same ledger before and after the profile read
    // means the three reads saw one state.
    const same = before.length === after.length && before.every((entry, index) => entry.id === after[index]!.id && entry.refundable === after[index]!.refundable);
    if (!same && attempt < 4) continue;
    if (!profile) return after.length ? ['ledger entries without a profile'] : [];
    return ledgerProblems(profile.current_credits, after);
  }
}

export interface AuditResult {
  usersAudited: number;
  drifted: { userId: string; problems: string[] }[];
}

/** Audits every user whose ledger moved since `since`; each drift is logged as an error naming the user. */
export async function auditActiveLedgers(since: Date): Promise<AuditResult> {
  const users = await listUsersWithLedgerEntriesSince(since.toISOString());
  const drifted: AuditResult['drifted'] = [];
  for (const userId of users) {
    const problems = await auditUser(userId);
    if (problems.length === 0) continue;
    log.error('ledger drift: invariant broken (not corrected)', { userId, problems });
    drifted.push({ userId, problems });
  }
  return { usersAudited: users.length, drifted };
}

export interface ReconcileOptions {
  criterion?: StuckCriterion;
  /** Ledgers that moved this far back are audited (a little more than the schedule, so runs overlap). */
  auditWindowMinutes?: number;
  now?: Date;
}

export interface ReconcileReport {
  settled: SettledRecord[];
  usersAudited: number;
  drifted: AuditResult['drifted'];
  abandonedDeletions: string[];
}

/** One run: settle stuck work, give back lost running places, audit the ledgers that moved, emit the findings as metrics. */
export async function reconcile(options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const now = options.now ?? new Date();
  const windowStart = new Date(now.getTime() - (options.auditWindowMinutes ?? 30) * 60_000);
  const criterion = options.criterion ?? { kind: 'past-timeout' };
  const deletions = await resumeAccountDeletions(criterion, now);
  const settled = [
    ...(await settleStuckWork(criterion, now)),
    ...(await refundOrphanedDebits(windowStart, now)),
    ...(await releaseEndedPlaces(new Date(now.getTime() - PLACE_LOOKBACK_SECONDS * 1000), now)),
    ...deletions.resumed,
  ];
  const audit = await auditActiveLedgers(windowStart);
  emitMetrics({
    ReconcilerFindings: settled.length + audit.drifted.length + deletions.abandoned.length,
    StuckWorkSettled: settled.length,
    LedgerDrift: audit.drifted.length,
    LedgersAudited: audit.usersAudited,
    AccountDeletionsAbandoned: deletions.abandoned.length,
  });
  return { settled, usersAudited: audit.usersAudited, drifted: audit.drifted, abandonedDeletions: deletions.abandoned };
}
