// What a function deploys with, as data both hosts read: its timeout and memory, the settings in its environment, and the IAM actions each level of
// access grants it. The function factory (lib/constructs/function-factory.ts) deploys them; the twin ends an invocation
// at the same timeout, gives its worker the same memory (lib/local/lambda-runtime.ts) and allows each function's
// credentials exactly these actions (lib/local/grants.ts).
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS } from '../lambdas/contracts/aws-limits.js';
import { SERVICE_NAME } from '../lambdas/core/log.js';
import { METRICS_NAMESPACE } from '../lambdas/core/metrics.js';
import { routeTables, USER_ROUTE_PRELUDE, type RouteDefinition } from '../lambdas/routes.js';

/** What of a function's declaration sets its limits (FunctionSpec's fields). */
export interface FunctionSettings {
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Runs ffmpeg/ffprobe: a media function's defaults are larger. */
  media?: boolean;
  /** The AI capabilities it calls. */
  providers?: readonly string[];
}

/** The twin's gateway cuts a route's function at the same default (lambdas/contracts/aws-limits.ts). */
const DEFAULT_TIMEOUT_SECONDS = DEFAULT_FUNCTION_TIMEOUT_SECONDS;
const DEFAULT_MEMORY_MB = 512;
/** Decoding and encoding a few seconds of 720p video in /tmp. */
const MEDIA_TIMEOUT_SECONDS = 300;
const MEDIA_MEMORY_MB = 2048;

export function functionTimeoutSeconds(spec: FunctionSettings): number {
  return spec.timeoutSeconds ?? (spec.media ? MEDIA_TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS);
}

export function functionMemoryMb(spec: FunctionSettings): number {
  return spec.memoryMb ?? (spec.media ? MEDIA_MEMORY_MB : DEFAULT_MEMORY_MB);
}

/** Powertools' settings of every function: one service name in the log lines and the metrics' namespace. */
export const POWERTOOLS_ENVIRONMENT = { POWERTOOLS_SERVICE_NAME: SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE } as const;

/** The settings a function's environment gets from its declaration (besides the names of what it is granted). */
export function settingsEnvironment(spec: FunctionSettings): Record<string, string> {
  return {
    ...POWERTOOLS_ENVIRONMENT,
    // Debug lines of one invocation in ten of the provider tasks, where a slow or odd provider answer needs them.
    ...(spec.providers?.length ? { POWERTOOLS_LOGGER_SAMPLE_RATE: '0.1' } : {}),
  };
}

/** A table's actions by access level (on the table and its indexes). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem'];
export const TABLE_WRITE_ACTIONS = [...TABLE_READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** A bucket's object actions by access level; read and write also get s3:ListBucket on the bucket (BUCKET_LIST_ACTION). */
export const BUCKET_READ_ACTIONS = ['s3:GetObject'];
// Tagging: uploads are created tagged pending, and a route that takes one tags it kept (the lifecycle of uploads).
export const BUCKET_WRITE_ACTIONS = [...BUCKET_READ_ACTIONS, 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'];
export const BUCKET_PUT_ACTIONS = ['s3:PutObject', 's3:PutObjectTagging'];
/** ListBucket lets a read of a missing key answer 404 (NoSuchKey) instead of 403; a signer of uploads reads nothing. */
export const BUCKET_LIST_ACTION = 's3:ListBucket';

/** A workflow's actions: on its executions, for a function that uses it (it also starts it) or only observes it. */
export const WORKFLOW_START_ACTION = 'states:StartExecution';
export const WORKFLOW_EXECUTION_ACTIONS = { uses: ['states:DescribeExecution', 'states:StopExecution'], observes: ['states:DescribeExecution'] } as const;

/**
 * A route's function as the HTTP API construct declares it to the function factory (less the environment values
 * only a deployed stack has): the twin runs the same declaration (lib/local/deployed-functions.ts).
 */
export function routeFunctionSpec(route: RouteDefinition) {
  return {
    handler: route.handler,
    tables: routeTables(route),
    buckets: route.buckets,
    workflows: route.workflows,
    timeoutSeconds: route.timeoutSeconds,
    memoryMb: route.memoryMb,
    faces: route.faces,
    userPool: route.userPool,
    secrets: route.secrets,
    prelude: route.auth === 'user' ? [USER_ROUTE_PRELUDE] : undefined,
  };
}
