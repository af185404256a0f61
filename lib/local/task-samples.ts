// The workflow tasks' sample inputs for `npm run invoke` / `npm run event`, worked out from each workflow's ASL:
// what the execution is started with, then Map item selection, Parameters, Catch and Choice paths up to the state.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AccountDeletionInput, AccountExportInput } from '../../lambdas/contracts/account.js';
import type { BatchArchiveInput, PublishInput } from '../../lambdas/contracts/workflows.js';
import { SAMPLE_IDS } from '../../lambdas/contracts/route.js';
import type { DeliveryState } from '../../lambdas/domain/webhooks/start.js';
import type { BatchWorkflowInput } from '../../lambdas/domain/batch/service.js';
import type { GenerationWorkflowInput } from '../../lambdas/domain/generation/service.js';
import type { VideoWorkflowInput } from '../../lambdas/domain/video/jobs.js';
import type { OutputResult } from '../../lambdas/domain/video/settle.js';
import { WORKFLOWS, type WorkflowName } from '../../lambdas/workflows.js';
import { SAMPLE_USER } from './sample-identity.js';
import type * as z from 'zod';

/** What each workflow is started with (the routes' startExecution input). */
export const EXECUTION_INPUTS: Record<WorkflowName, Record<string, unknown>> = {
  generation: { userId: SAMPLE_USER.sub, generationId: SAMPLE_IDS.generation } satisfies GenerationWorkflowInput,
  video: { userId: SAMPLE_USER.sub, jobId: SAMPLE_IDS.job, outputs: [0], maxConcurrency: 1 } satisfies VideoWorkflowInput,
  batch: { userId: SAMPLE_USER.sub, batchId: SAMPLE_IDS.batch, photoIds: [`${SAMPLE_IDS.batch}-p000`], maxConcurrency: 4 } satisfies BatchWorkflowInput,
  batchArchive: { userId: SAMPLE_USER.sub, batchId: SAMPLE_IDS.batch, attempt: 1 } satisfies BatchArchiveInput,
  accountExport: { userId: SAMPLE_USER.sub, exportId: '00000000-0000-4000-8000-000000000001' } satisfies AccountExportInput,
  deleteAccount: { userId: SAMPLE_USER.sub, tombstoneId: 'deleted-00000000-0000-4000-8000-000000000000' } satisfies AccountDeletionInput,
  webhookDelivery: {
    userId: SAMPLE_USER.sub,
    endpointId: SAMPLE_IDS.webhook,
    event: { id: 'evt_sample', type: 'webhook.test', timestamp: '2026-11-23T00:00:00.000Z', resourceId: SAMPLE_IDS.webhook },
    attempt: 1,
    delays: [5, 300],
  } satisfies DeliveryState,
  publish: { userId: SAMPLE_USER.sub, publicationId: 'pub_sample', files: [0] } satisfies z.input<typeof PublishInput>,
};

/** What a task's predecessor leaves in the state (its result), which the ASL alone cannot say. */
const PREDECESSOR_RESULTS: Partial<Record<string, Record<string, unknown>>> = {
  CheckClip: { clipIndex: 0, clipCount: 1, operationName: `local:${SAMPLE_IDS.job}:0`, model: 'local-engine', clips: [], attempts: 0, status: 'running' },
  FinalizeOutput: { clipIndex: 0, clipCount: 1, model: 'local-engine', attempts: 1, clips: [`${SAMPLE_USER.sub}/videos/${SAMPLE_IDS.job}/raw/output-1-clip-1.mp4`] },
};

/** One Map iteration's result as FinalizeOutput returns it (the Map collects them at its ResultPath). */
const SAMPLE_DELIVERED_OUTPUT: OutputResult = {
  index: 0,
  model: 'local-engine',
  video_key: `${SAMPLE_USER.sub}/videos/${SAMPLE_IDS.job}/video-1.mp4`,
  thumbnail_key: `${SAMPLE_USER.sub}/videos/${SAMPLE_IDS.job}/poster-1.jpg`,
  seam_score: 0.4,
  original_seam_score: 0.4,
  repaired: false,
  duration_seconds: 5,
  width: 720,
  height: 1280,
};

const SAMPLE_CAUGHT_ERROR = { Error: 'States.TaskFailed', Cause: 'A sample failure caught by the workflow.' };

interface AslState {
  Type: string;
  Next?: string;
  Parameters?: unknown;
  ItemSelector?: unknown;
  ItemsPath?: string;
  ResultPath?: string;
  Catch?: { Next: string; ResultPath?: string }[];
  Choices?: { Variable?: string; StringEquals?: string; Next: string }[];
  ItemProcessor?: AslScope;
  Iterator?: AslScope;
}

interface AslScope {
  StartAt: string;
  States: Record<string, AslState>;
}

export function readAsl(workflow: WorkflowName): AslScope {
  return JSON.parse(readFileSync(resolve(import.meta.dirname, '../workflows', WORKFLOWS[workflow].asl), 'utf8'));
}

/** The input a task state receives, worked out from the ASL: Map item selection, Parameters, Catch and Choice paths. */
export function sampleTaskInput(workflow: WorkflowName, state: string): unknown {
  const asl = readAsl(workflow);
  const executionInput = structuredClone(EXECUTION_INPUTS[workflow]);
  // The state's own scope: the top level, or the item processor of the Map that holds it.
  let scope: AslScope = asl;
  let stateInput: Record<string, unknown> = executionInput;
  for (const candidate of Object.values(asl.States)) {
    const processor = candidate.ItemProcessor ?? candidate.Iterator;
    if (candidate.Type === 'Map' && processor?.States[state]) {
      scope = processor;
      const firstItem = (readPath(candidate.ItemsPath ?? '$', executionInput) as unknown[])[0];
      stateInput = resolveTemplate(candidate.ItemSelector ?? { 'value.$': '$$.Map.Item.Value' }, executionInput, { Map: { Item: { Value: firstItem, Index: 0 } } }) as Record<string, unknown>;
    }
  }
  const definition = scope.States[state];
  if (!definition) throw new Error(`${WORKFLOWS[workflow].asl} has no state ${state}`);
  if (scope.StartAt === state) return definition.Parameters ? resolveTemplate(definition.Parameters, stateInput, {}) : stateInput;
  Object.assign(stateInput, structuredClone(PREDECESSOR_RESULTS[state] ?? {}));
  for (const other of Object.values(scope.States)) {
    // A Map that leads here left its iterations' results at its ResultPath.
    if (other.Type === 'Map' && other.Next === state && other.ResultPath) writePath(stateInput, other.ResultPath, [SAMPLE_DELIVERED_OUTPUT]);
    // A Choice rule that leads here holds in this state.
    for (const choice of other.Choices ?? []) {
      if (choice.Next === state && choice.Variable && choice.StringEquals !== undefined) writePath(stateInput, choice.Variable, choice.StringEquals);
    }
    // A state reached only by Catch gets the caught error at the Catch's ResultPath.
    for (const caught of other.Catch ?? []) {
      if (caught.Next === state && !reachedOtherwise(scope.States, state)) writePath(stateInput, caught.ResultPath ?? '$', SAMPLE_CAUGHT_ERROR);
    }
  }
  return definition.Parameters ? resolveTemplate(definition.Parameters, stateInput, {}) : stateInput;
}

function reachedOtherwise(scope: Record<string, AslState>, state: string): boolean {
  return Object.values(scope).some((other) => other.Next === state || other.Choices?.some((choice) => choice.Next === state));
}

function readPath(path: string, data: unknown): unknown {
  if (path === '$') return data;
  return path
    .replace(/^\$\.?/, '')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);
}

function writePath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.replace(/^\$\.?/, '').split('.').filter(Boolean);
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  const last = keys.at(-1);
  if (last) node[last] = structuredClone(value);
}

/** JSONPath Parameters/ItemSelector: keys ending in `.$` take the value at their path ($ the state, $$ the context). */
function resolveTemplate(template: unknown, data: unknown, context: unknown): unknown {
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, data, context));
  if (template === null || typeof template !== 'object') return template;
  return Object.fromEntries(
    Object.entries(template).map(([key, value]) =>
      key.endsWith('.$') && typeof value === 'string'
        ? [key.slice(0, -2), value.startsWith('$$') ? readPath(value.slice(1), context) : readPath(value, data)]
        : [key, resolveTemplate(value, data, context)],
    ),
  );
}
