// The stage's concurrency budget, in one place: how many Lambda executions each part of the stack may hold at once,
// and the check that they fit the account's concurrency (context accountConcurrency).
//
// Lambda quotas (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html, read 2026-11): "New AWS
// accounts have reduced concurrency and memory quotas. AWS raises these quotas automatically based on your usage."
// Such an account runs 10 executions at once per region, all unreserved: Lambda keeps 10 unreserved in every account
// ("Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its
// minimum value of [10]", the answer to any reservation on such an account), so nothing can be reserved there. An
// execution asked for past the account's concurrency is throttled: a route answers 500 (the HTTP API's answer to a
// failed invocation), a workflow task retries (Lambda.TooManyRequestsException), a stream batch waits.
//
// What can hold executions at the same moment:
// - a workflow's Map state: one execution per iteration running a task, at most its MaxConcurrency (a path's value is
//   the budget line the starting route passes: MAP_CONCURRENCY_ENV in lambdas/workflows.ts);
// - a DynamoDB stream event source mapping: one execution per shard and ParallelizationFactor (a new table's stream
//   has one shard); every streamed table has one consumer (lib/constructs/realtime.ts);
// - a function's reserved concurrency, taken from the pool whether used or not;
// - the API routes: the executions the budget keeps free for them (`api`), which no other line may take.
// One batch and one video at a time fit the budget; more at once are throttled and retried, never failed.
import type { Stack } from 'aws-cdk-lib';
import { CfnEventSourceMapping, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { MAP_CONCURRENCY_LIMIT, WORKFLOWS, type MappedWorkflow, type WorkflowName } from '../lambdas/workflows.js';
import { readWorkflowText } from './workflows/index.js';

export interface ConcurrencyBudget {
  /** Executions kept free for the API routes: a page's reads arrive together. */
  api: number;
  /** The batch workflow's Map: photos of one batch made at once. */
  batchPhotos: number;
  /** The video workflow's Map: outputs of one video made at once. */
  videoOutputs: number;
  /** Each stream mapping's ParallelizationFactor: batches of one shard processed at once (1 to 10). */
  streamParallelization: number;
}

/** The concurrency of a new account, and of a stage whose context does not say more (accountConcurrency). */
export const NEW_ACCOUNT_CONCURRENCY = 10;
/** Lambda keeps this many executions unreserved whatever the account's concurrency. */
export const UNRESERVED_MINIMUM = 10;

/**
 * The budget of a new account (context concurrencyBudget overrides lines): 6 table streams (one execution each), the
 * Shopify publish Map (1, a literal: one file at a time), 1 kept for the API, 1 photo of a batch and 1 output of a video
 * at once = 10. The API's one is a floor: the streams and Maps hold executions only while they work, and a route gets
 * any execution they leave idle. Raise accountConcurrency and these lines once AWS raises the quota (docs/deploy.md).
 */
export const NEW_ACCOUNT_BUDGET: ConcurrencyBudget = { api: 1, batchPhotos: 1, videoOutputs: 1, streamParallelization: 1 };

/** The budget line of each Map whose MaxConcurrency the starting route passes. */
const MAP_LINES = { batch: 'batchPhotos', video: 'videoOutputs' } as const satisfies Record<MappedWorkflow, keyof ConcurrencyBudget>;

export interface ConcurrencyLine {
  what: string;
  executions: number;
}

interface MapState {
  Type: string;
  MaxConcurrency?: number;
  MaxConcurrencyPath?: string;
  ItemProcessor?: { States: Record<string, MapState> };
  Iterator?: { States: Record<string, MapState> };
}

/** Every Map state of the workflows with the executions it may hold; an unbounded Map is refused. */
function mapLines(budget: ConcurrencyBudget): ConcurrencyLine[] {
  const lines: ConcurrencyLine[] = [];
  const walk = (workflow: WorkflowName, states: Record<string, MapState>) => {
    for (const [name, state] of Object.entries(states)) {
      if (state.Type !== 'Map') continue;
      const line = (MAP_LINES as Partial<Record<WorkflowName, keyof ConcurrencyBudget>>)[workflow];
      const executions = state.MaxConcurrencyPath && line ? budget[line] : (state.MaxConcurrency ?? 0);
      if (executions < 1) {
        throw new Error(`The ${workflow} workflow's Map state ${name} is unbounded: give it a MaxConcurrency, or a MaxConcurrencyPath with a line of the concurrency budget (lib/concurrency.ts)`);
      }
      lines.push({ what: `${workflow} workflow, Map ${name}${line && state.MaxConcurrencyPath ? ` (${line})` : ''}`, executions });
      const inner = state.ItemProcessor ?? state.Iterator;
      if (inner) walk(workflow, inner.States);
    }
  };
  for (const workflow of Object.keys(WORKFLOWS) as WorkflowName[]) walk(workflow, (JSON.parse(readWorkflowText(WORKFLOWS[workflow])) as { States: Record<string, MapState> }).States);
  return lines;
}

/** The lines of the stack as built: its Maps, its stream mappings, its reservations and the API's share. */
export function concurrencyLines(stack: Stack, budget: ConcurrencyBudget): ConcurrencyLine[] {
  const all = stack.node.findAll();
  return [
    { what: 'API routes (kept free)', executions: budget.api },
    ...mapLines(budget),
    ...all
      .filter((construct): construct is CfnEventSourceMapping => construct instanceof CfnEventSourceMapping)
      .map((mapping) => ({ what: `stream consumer ${mapping.node.path}`, executions: Number(mapping.parallelizationFactor ?? 1) })),
    ...all
      .filter((construct): construct is CfnFunction => construct instanceof CfnFunction && construct.reservedConcurrentExecutions !== undefined)
      .map((fn) => ({ what: `reserved by ${fn.node.path}`, executions: Number(fn.reservedConcurrentExecutions) })),
  ];
}

/**
 * Refuses a stage whose lines add up to more than the account's concurrency, or whose reservations leave Lambda fewer
 * than its 10 unreserved executions, naming every line and the fix.
 */
export function checkConcurrency(stack: Stack, accountConcurrency: number, budget: ConcurrencyBudget): ConcurrencyLine[] {
  const lines = concurrencyLines(stack, budget);
  const total = lines.reduce((sum, line) => sum + line.executions, 0);
  const reserved = lines.filter((line) => line.what.startsWith('reserved by ')).reduce((sum, line) => sum + line.executions, 0);
  const listing = lines.map((line) => `  ${String(line.executions).padStart(4)}  ${line.what}`).join('\n');
  if (total > accountConcurrency) {
    throw new Error(
      `The stage's concurrency budget needs ${total} Lambda executions at once, above context accountConcurrency (${accountConcurrency}):\n${listing}\n` +
        'Lower a line with context concurrencyBudget (api, batchPhotos, videoOutputs, streamParallelization), or raise accountConcurrency once ' +
        "AWS has raised the account's Lambda concurrency quota (docs/deploy.md, A new account).",
    );
  }
  if (reserved > accountConcurrency - UNRESERVED_MINIMUM) {
    throw new Error(
      `Functions reserve ${reserved} executions, but Lambda keeps ${UNRESERVED_MINIMUM} of the account's ${accountConcurrency} unreserved: ` +
        `at most ${Math.max(0, accountConcurrency - UNRESERVED_MINIMUM)} can be reserved.\n${listing}`,
    );
  }
  return lines;
}

/** Context concurrencyBudget: an object (cdk.json) or its JSON (command line) of lines over NEW_ACCOUNT_BUDGET. */
export function readConcurrencyBudget(value: unknown): ConcurrencyBudget {
  if (value === undefined || value === null || value === '') return NEW_ACCOUNT_BUDGET;
  const given: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error(`Context concurrencyBudget must be an object of budget lines, got ${JSON.stringify(value)}`);
  const budget = { ...NEW_ACCOUNT_BUDGET };
  const ranges: Record<keyof ConcurrencyBudget, [number, number]> = { api: [0, 10_000], batchPhotos: [1, MAP_CONCURRENCY_LIMIT], videoOutputs: [1, MAP_CONCURRENCY_LIMIT], streamParallelization: [1, 10] };
  for (const [line, amount] of Object.entries(given)) {
    const range = ranges[line as keyof ConcurrencyBudget];
    if (!range) throw new Error(`Context concurrencyBudget: unknown line '${line}' (lines: ${Object.keys(ranges).join(', ')})`);
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < range[0] || amount > range[1]) {
      throw new Error(`Context concurrencyBudget.${line} must be a whole number from ${range[0]} to ${range[1]}, got ${JSON.stringify(amount)}`);
    }
    budget[line as keyof ConcurrencyBudget] = amount;
  }
  return budget;
}

/** Context accountConcurrency: the account's concurrent Lambda executions in the stack's region (default a new account's). */
export function readAccountConcurrency(value: unknown): number {
  if (value === undefined || value === null || value === '') return NEW_ACCOUNT_CONCURRENCY;
  const amount = typeof value === 'string' ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < NEW_ACCOUNT_CONCURRENCY) {
    throw new Error(`Context accountConcurrency must be a whole number of at least ${NEW_ACCOUNT_CONCURRENCY}, got ${JSON.stringify(value)}`);
  }
  return amount;
}
