// The one flow by which anything spends credits — an image, an edit, an upscale, a video, a batch, and the same
// routes through the public API:
//
//   check   the route validates the request and everything it names (nothing is written yet);
//   charge  one debit, keyed by the Idempotency-Key and bound to this operation and this exact body, taking the
//           record's place under the caller's running-work cap in the same transaction;
//   record  the record the debit paid for, under the id the debit carries (written only after the charge is won);
//   start   the workflow named by the record id.
//
// A retry of the same request (same user, operation and body) answers the first one's record, at any balance, and
// finishes whatever the first attempt left undone (recording, starting). The same key with another operation or body
// is 409 IDEMPOTENCY_KEY_REUSED, and the refused request writes nothing at all. Each step is idempotent: the debit by
// its id, the record by a conditional create, the workflow by its execution name.
import { createHash } from 'node:crypto';
import type * as z from 'zod';
import type { RunningLimitName } from '../contracts/catalog.js';
import { conflict } from '../core/errors.js';
import type { BodyOf, QueryOf, RouteContract } from '../contracts/route.js';
import { type HttpHandler, route, type RouteRequest, type UserRequest } from '../core/http.js';
import { getLedgerItem } from '../data/credits-repo.js';
import { newId } from '../data/ids.js';
import { debit, debitIdOf, ensureProfile, orphanRefundRef, refundIdOf } from './credits.js';
import { runningPlace, takeRequest } from './limits.js';
import { appendLogKeys, type LogKeys } from '../core/log.js';
import { emitMetrics } from '../core/metrics.js';

export interface SpendingRequest {
  userId: string;
  /** The operation that spends, e.g. 'generate-video': the same key on another operation is refused. */
  operation: string;
  idempotencyKey: string;
  /** The parsed request body: hashed canonically, so the same key with another body is refused. */
  body: unknown;
}

export interface SpendingPlan<R> {
  cost: number;
  /** The ledger line, e.g. 'Image generation (2K)'. */
  description: string;
  /** The running-work cap the record takes a place under, with its charge; its end gives the place back. */
  running?: RunningLimitName;
  /**
   * Creates the record with id `recordId` (a conditional create: idempotent), storing `debitId` so that its refunds
   * name the debit. Runs only once the charge is won, or on a replay whose record is missing.
   */
  record: (recordId: string, debitId: string) => Promise<R>;
  /** Starts the workflow named by the record id; idempotent. A record that already ended is left alone. */
  start: (record: R) => Promise<void>;
}

export interface Spent<R> {
  recordId: string;
  record: R;
  /** The balance right after this request's charge (the same figure on a replay). */
  balanceAfter: number;
  replayed: boolean;
}

/** The digest a charge is bound to: the operation and the body with its keys in a fixed order. */
export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\n${canonicalJson(body)}`).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export async function spend<R>(request: SpendingRequest, plan: SpendingPlan<R>): Promise<Spent<R>> {
  const { userId, operation, idempotencyKey } = request;
  const binding = { operation, request_hash: requestHash(operation, request.body) };
  // A request seen before is answered as it was, whatever the limits and the balance say now.
  const earlier = await getLedgerItem(userId, debitIdOf(idempotencyKey));
  // A charge whose request was cut off before its record was written has been given back by the reconciler: serving
  // its retry now would make the work free.
  if (earlier?.refundable === 0 && earlier.ref && (await getLedgerItem(userId, refundIdOf(orphanRefundRef(earlier.ref))))) {
    throw conflict('REQUEST_EXPIRED', 'This request was cut off and its credits were given back. Send it again with a new Idempotency-Key.');
  }

  const ref = earlier?.ref ?? newId();
  const charge = await debit(userId, {
    idempotencyKey,
    amount: plan.cost,
    description: plan.description,
    ref,
    binding,
    // The running-work place is taken in the charge's transaction: a new charge at the cap is refused whole, and a
    // replay (whose debit exists) takes nothing.
    reservation: plan.running && runningPlace(userId, plan.running, ref),
  });
  const recordId = charge.ref!;
  appendLogKeys(correlationKeyOf(operation, recordId));
  if (!charge.replayed) emitMetrics({ GenerationsStarted: 1, CreditsSpent: plan.cost }, { type: metricTypeOf(operation) });
  const record = await plan.record(recordId, debitIdOf(idempotencyKey));
  await plan.start(record);
  return { recordId, record, balanceAfter: charge.entry.balance_after, replayed: charge.replayed };
}

/** The metrics' `type` of an operation: the generation's own operation name ('on-model', 'edit', 'upscale', 'video', 'batch'). */
function metricTypeOf(operation: string): string {
  for (const type of ['video', 'batch', 'edit', 'upscale']) if (operation.includes(type)) return type;
  return 'on-model';
}

/** The log key a record's id goes under: a video job, a batch, or a generation. */
function correlationKeyOf(operation: string, recordId: string): LogKeys {
  if (operation.includes('video')) return { jobId: recordId };
  if (operation.includes('batch')) return { batchId: recordId };
  return { generationId: recordId };
}

export interface SpendingRouteRequest<B, Q> extends UserRequest<B, Q> {
  spending: SpendingRequest;
}

/**
 * A route that spends, built from its contract (which says `idempotent: true`, so the Idempotency-Key is required):
 * the caller's spending rate is counted, the caller's profile exists (created with the sign-up credits on a first
 * call), and the handler gets the request to spend with.
 */
export function spendingRoute<R extends RouteContract & { auth: 'user'; idempotent: true; body: z.ZodType }>(
  contract: R,
  operation: string,
  run: (request: SpendingRouteRequest<BodyOf<R>, QueryOf<R>>) => Promise<unknown>,
): HttpHandler {
  // A user route (the contract says so): its request carries the caller.
  const spend = async (request: UserRequest<BodyOf<R>, QueryOf<R>>) => {
    const userId = request.caller.userId;
    await takeRequest(userId, 'spending');
    await ensureProfile(request.caller);
    return run({ ...request, spending: { userId, operation, idempotencyKey: request.idempotencyKey, body: request.body } });
  };
  return route(contract, spend as (request: RouteRequest<R>) => Promise<unknown>);
}
