// Each function on the twin gets what its declaration grants it, as CDK grants it (lib/constructs/function-factory.ts,
// with the actions of lib/function-settings.ts), and no more, enforced where the cloud enforces it: at the services.
//   - Each function has credentials of its own (functionCredentials: a role session's shape, like LOCAL_CREDENTIALS),
//     and runs in a worker whose environment holds those credentials and only the names of the tables, buckets,
//     workflows and user pool it is granted (functionEnvironment), so a missing grant fails as in a Lambda:
//     `requireEnv` names the variable.
//   - Every emulator the functions reach checks the SigV4 signature of each request against the credentials it knows
//     (TwinAccess: the twin's own and every function's) and then what the signing function may do there: DynamoDB
//     Local's proxy (dynamoDbRefusal), the S3 check, for header-signed requests and presigned URLs alike (s3Refusal),
//     the Step Functions API (stepFunctionsRefusal), cognito-local's IAM-authorized operations (userPoolRefusal) and
//     the @connections API (connectionsRefusal). A refusal is AWS's AccessDenied, naming the action and resource.
// The twin's own credentials (LOCAL_CREDENTIALS: the emulators' setup, the tests' direct reads) are allowed everything.
//   - A secret it declares (lambdas/core/secrets.ts) is given to it by value in its environment; the others are hidden
//     like any name it is not granted.
// Not covered: settings that are not resources (the API-key pepper, the support addresses).
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { rawClipKey } from '../../lambdas/domain/video/keys.js';
import { USER_POOL_ENV, workflowEnvName } from '../../lambdas/core/config.js';
import { SECRETS, secretIdEnvName, secretValueEnvName, type SecretName } from '../../lambdas/core/secrets.js';
import { BUCKETS, TABLES, bucketEnvName, tableEnvName, type BucketName, type TableName } from '../../lambdas/data/tables.js';
import { USER_POOL_ACTIONS, type Access, type BucketAccess } from '../../lambdas/routes.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import {
  BUCKET_LIST_ACTION,
  BUCKET_PUT_ACTIONS,
  BUCKET_READ_ACTIONS,
  BUCKET_WRITE_ACTIONS,
  TABLE_READ_ACTIONS,
  TABLE_WRITE_ACTIONS,
  WORKFLOW_EXECUTION_ACTIONS,
  WORKFLOW_START_ACTION,
} from '../function-settings.js';
import { deployedFunctions, type DeployedFunction } from './deployed-functions.js';
import { ROLE_SESSION_TOKEN_LENGTH, sessionTokenOfLength } from './session-tokens.js';
import type { TwinCredentials } from './s3-signatures.js';

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

/** What one function is granted. */
export interface FunctionGrants {
  name: string;
  tables: Map<TableName, Access>;
  buckets: Map<BucketName, BucketAccess>;
  /** Workflows it starts, describes and stops. */
  workflows: Set<string>;
  /** Workflows whose executions it only looks up (DescribeExecution). */
  observes: Set<string>;
  /** The user-pool actions it may call (none: not even the pool's id). */
  userPool: Set<string>;
  /** Tables whose names it is given without access. */
  tableNames: Set<TableName>;
  postsToConnections: boolean;
  /** The secrets it reads (their values, on the twin). */
  secrets: Set<SecretName>;
  /**
   * It calls the video provider: in the cloud a cloud adapter's function may also put objects under the results
   * bucket's raw-clip folders (lib/constructs/provider-access.ts, RAW_CLIPS), where a checked clip is stored.
   */
  rawClipWrites: boolean;
}

/** The raw-clip folders' key pattern (the cloud's RAW_CLIPS resource), as a regular expression: IAM's `*` spans `/`. */
const RAW_CLIP_KEY = new RegExp(`^${`${posix.dirname(rawClipKey('*', '*', 0, 0))}/*`.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export function grantsOf(fn: DeployedFunction): FunctionGrants {
  const { spec } = fn;
  return {
    name: fn.name,
    tables: new Map(Object.entries(spec.tables ?? {}) as [TableName, Access][]),
    buckets: new Map(Object.entries(spec.buckets ?? {}) as [BucketName, BucketAccess][]),
    workflows: new Set(spec.workflows ?? []),
    observes: new Set(spec.observes ?? []),
    userPool: new Set(spec.userPool ? USER_POOL_ACTIONS[spec.userPool] : []),
    tableNames: new Set(fn.tableNames ?? []),
    postsToConnections: Boolean(fn.postsToConnections),
    secrets: new Set(spec.secrets ?? []),
    rawClipWrites: Boolean(spec.providers?.includes('video')),
  };
}

/**
 * A function's own credentials, shaped like a Lambda role session's (an ASIA… key id, a 40-character secret, a
 * 1,148-character session token), derived from its name: the same on every start, so a URL a function signed before a
 * restart still verifies after it, and known to every emulator of the twin.
 */
export function functionCredentials(name: string): TwinCredentials {
  const digest = (purpose: string) => createHash('sha256').update(`modelloop-twin-function/${purpose}/${name}`).digest();
  const base32 = [...digest('key')].map((byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('');
  return {
    accessKeyId: `ASIA${base32.slice(0, 16)}`,
    secretAccessKey: digest('secret').toString('base64').slice(0, 40),
    sessionToken: sessionTokenOfLength(ROLE_SESSION_TOKEN_LENGTH, `function/${name}`),
  };
}

/** Who signed a request: the twin itself (no grants: it may do anything) or a function (its grants). */
export interface Principal {
  name: string;
  credentials: TwinCredentials;
  grants?: FunctionGrants;
}

/** The physical names the emulators use, filled in as each starts: the checks map them back to the declarations. */
export interface TwinResources {
  tables: Partial<Record<TableName, string>>;
  buckets: Partial<Record<BucketName, string>>;
  /** Workflow name → state machine ARN. */
  workflows: Partial<Record<string, string>>;
  userPoolId?: string;
}

/** The credentials every emulator of one twin accepts, and the names of its resources. */
export class TwinAccess {
  readonly resources: TwinResources = { tables: {}, buckets: {}, workflows: {} };
  readonly #principals = new Map<string, Principal>();

  /** `twin`: the twin's own credentials (LOCAL_CREDENTIALS), allowed everything. */
  constructor(twin: TwinCredentials, functions: readonly DeployedFunction[] = deployedFunctions()) {
    this.#principals.set(twin.accessKeyId, { name: 'twin', credentials: twin });
    for (const fn of functions) {
      const credentials = functionCredentials(fn.name);
      this.#principals.set(credentials.accessKeyId, { name: fn.name, credentials, grants: grantsOf(fn) });
    }
  }

  /** The principal an access key id belongs to (undefined: a key no service of the twin knows). */
  principal(accessKeyId: string): Principal | undefined {
    return this.#principals.get(accessKeyId);
  }

  /** Every credentials the twin's services accept. */
  allCredentials(): TwinCredentials[] {
    return [...this.#principals.values()].map((principal) => principal.credentials);
  }

  /** The credentials of an access key id, as the signature checks look them up. */
  readonly credentialsOf = (accessKeyId: string): TwinCredentials | undefined => this.#principals.get(accessKeyId)?.credentials;
}

/** The environment variables a grant gives: every table's, bucket's and workflow's, and the user pool's. */
const GRANTED_VARIABLES = new Set([
  ...(Object.keys(TABLES) as TableName[]).map(tableEnvName),
  ...(Object.keys(BUCKETS) as BucketName[]).map(bucketEnvName),
  ...Object.keys(WORKFLOWS).map(workflowEnvName),
  USER_POOL_ENV,
  ...(Object.keys(SECRETS) as SecretName[]).flatMap((secret) => [secretValueEnvName(secret), secretIdEnvName(secret)]),
]);

/** The twin's variables a worker never inherits: the twin's own credentials, and Node options meant for the twin's process. */
const NOT_INHERITED = new Set(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'NODE_OPTIONS']);

function visible(grants: FunctionGrants, name: string): boolean {
  if (!GRANTED_VARIABLES.has(name)) return !NOT_INHERITED.has(name);
  if (name === USER_POOL_ENV) return grants.userPool.size > 0;
  for (const table of [...grants.tables.keys(), ...grants.tableNames]) if (tableEnvName(table) === name) return true;
  for (const bucket of grants.buckets.keys()) if (bucketEnvName(bucket) === name) return true;
  for (const workflow of [...grants.workflows, ...grants.observes]) if (workflowEnvName(workflow) === name) return true;
  for (const secret of grants.secrets) if (secretValueEnvName(secret) === name || secretIdEnvName(secret) === name) return true;
  return false;
}

/**
 * A function's environment on the twin: the twin's (its endpoints and settings, and whatever the developer or a test
 * set, such as the local engine's fault knob), less the names of resources it is not granted, with its own credentials.
 */
export function functionEnvironment(fn: DeployedFunction, twin: NodeJS.ProcessEnv): Record<string, string> {
  const grants = grantsOf(fn);
  const credentials = functionCredentials(fn.name);
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(twin)) if (value !== undefined && visible(grants, name)) environment[name] = value;
  return {
    ...environment,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
  };
}

/**
 * IAM's refusal of an action no policy of the role allows, in the words AWS uses (the same in every service's
 * AccessDenied message).
 */
export function accessDeniedMessage(principal: Principal, action: string, resource: string): string {
  return `User: arn:aws:sts::${ACCOUNT}:assumed-role/${principal.name}-role/${principal.name} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;
}

/** A refusal: the action and resource named in AccessDenied. */
export interface Refusal {
  action: string;
  resource: string;
  message: string;
}

const refusal = (principal: Principal, action: string, resource: string): Refusal => ({ action, resource, message: accessDeniedMessage(principal, action, resource) });

/** The logical name of a physical one. */
function logicalOf<N extends string>(names: Partial<Record<N, string>>, physical: string): N | undefined {
  return (Object.entries(names) as [N, string][]).find(([, name]) => name === physical)?.[0];
}

// ——— DynamoDB ———

/** The IAM action and table of each part of a DynamoDB request (a transaction's items each need their own action). */
function dynamoDbActions(operation: string, body: Record<string, any>): [action: string, table: string][] {
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    const itemActions: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
    return (body.TransactItems ?? []).flatMap((item: Record<string, { TableName?: string }>) =>
      Object.entries(item).map(([kind, part]): [string, string] => [`dynamodb:${itemActions[kind] ?? kind}`, String(part?.TableName)]),
    );
  }
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem') return Object.keys(body.RequestItems ?? {}).map((table) => [`dynamodb:${operation}`, table]);
  return [[`dynamodb:${operation}`, typeof body.TableName === 'string' ? body.TableName : '*']];
}

/** Why DynamoDB refuses this principal the request (an X-Amz-Target operation and its JSON body), if it does. */
export function dynamoDbRefusal(principal: Principal, operation: string, body: Record<string, any>, resources: TwinResources): Refusal | undefined {
  const { grants } = principal;
  if (!grants) return undefined;
  for (const [action, physical] of dynamoDbActions(operation, body)) {
    const table = logicalOf(resources.tables, physical);
    const access = table && grants.tables.get(table);
    const allowed = access === 'write' ? TABLE_WRITE_ACTIONS : access === 'read' ? TABLE_READ_ACTIONS : [];
    if (!allowed.includes(action)) return refusal(principal, action, `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${physical}`);
  }
  return undefined;
}

// ——— S3 ———

/** A request to S3 as the check sees it: the method, the path-style target (still percent-encoded) and the headers. */
export interface S3Request {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The IAM actions an S3 request needs, each on its resource (a bucket, or a bucket's objects). */
function s3Actions(request: S3Request): [action: string, bucket: string, key: string | undefined][] {
  const [path = '', query = ''] = request.url.split('?', 2);
  const [bucket = '', ...keyParts] = path.slice(1).split('/').map(decodeURIComponent);
  const key = keyParts.join('/') || undefined;
  const has = (name: string) => new RegExp(`(^|&)${name}(=|&|$)`).test(query);
  const method = request.method.toUpperCase();
  const header = (name: string) => request.headers[name];
  if (!key) {
    if (method === 'POST' && has('delete')) return [['s3:DeleteObject', bucket, '*']];
    if (method === 'GET' || method === 'HEAD') return [[has('uploads') ? 's3:ListBucketMultipartUploads' : has('location') ? 's3:GetBucketLocation' : BUCKET_LIST_ACTION, bucket, undefined]];
    return [[method === 'PUT' ? 's3:CreateBucket' : method === 'DELETE' ? 's3:DeleteBucket' : `s3:${method}Bucket`, bucket, undefined]];
  }
  const actions: [string, string, string | undefined][] = [];
  if (method === 'GET' || method === 'HEAD') actions.push([has('tagging') ? 's3:GetObjectTagging' : has('uploadId') ? 's3:ListMultipartUploadParts' : 's3:GetObject', bucket, key]);
  else if (method === 'PUT' || method === 'POST') {
    actions.push([has('tagging') ? 's3:PutObjectTagging' : 's3:PutObject', bucket, key]);
    if (header('x-amz-tagging') !== undefined) actions.push(['s3:PutObjectTagging', bucket, key]);
    const source = header('x-amz-copy-source');
    if (typeof source === 'string') {
      const [sourceBucket = '', ...sourceKey] = decodeURIComponent(source.split('?')[0]!).replace(/^\//, '').split('/');
      actions.push(['s3:GetObject', sourceBucket, sourceKey.join('/')]);
    }
  } else if (method === 'DELETE') actions.push([has('uploadId') ? 's3:AbortMultipartUpload' : has('tagging') ? 's3:DeleteObjectTagging' : 's3:DeleteObject', bucket, key]);
  else actions.push([`s3:${method}Object`, bucket, key]);
  return actions;
}

/** Why S3 refuses this principal the request, if it does: checked alike for header-signed requests and presigned URLs. */
export function s3Refusal(principal: Principal, request: S3Request, resources: TwinResources): Refusal | undefined {
  const { grants } = principal;
  if (!grants) return undefined;
  for (const [action, physical, key] of s3Actions(request)) {
    const bucket = logicalOf(resources.buckets, physical);
    const access = bucket && grants.buckets.get(bucket);
    const objectActions = access === 'write' ? BUCKET_WRITE_ACTIONS : access === 'read' ? BUCKET_READ_ACTIONS : access === 'put' ? BUCKET_PUT_ACTIONS : [];
    const allowed = key === undefined ? (access && access !== 'put' ? [BUCKET_LIST_ACTION] : []) : objectActions;
    const rawClip = grants.rawClipWrites && bucket === 'results' && action === 's3:PutObject' && key !== undefined && RAW_CLIP_KEY.test(key);
    if (!allowed.includes(action) && !rawClip) return refusal(principal, action, `arn:aws:s3:::${physical}${key === undefined ? '' : `/${key}`}`);
  }
  return undefined;
}

// ——— Step Functions ———

/** arn:…:execution:<state machine>:<execution name> → arn:…:stateMachine:<state machine>. */
const stateMachineOf = (executionArn: string) => executionArn.replace(':execution:', ':stateMachine:').replace(/:[^:]+$/, '');

/** Why Step Functions refuses this principal the request, if it does: start, describe and stop a workflow it uses; describe one it observes. */
export function stepFunctionsRefusal(principal: Principal, operation: string, body: Record<string, any>, resources: TwinResources): Refusal | undefined {
  const { grants } = principal;
  if (!grants) return undefined;
  const action = `states:${operation}`;
  const resource = String(body.executionArn ?? body.stateMachineArn ?? '*');
  const stateMachine = typeof body.stateMachineArn === 'string' ? body.stateMachineArn : typeof body.executionArn === 'string' ? stateMachineOf(body.executionArn) : undefined;
  const workflow = stateMachine === undefined ? undefined : logicalOf(resources.workflows, stateMachine);
  const allowed: readonly string[] =
    workflow === undefined
      ? []
      : grants.workflows.has(workflow)
        ? [WORKFLOW_START_ACTION, ...WORKFLOW_EXECUTION_ACTIONS.uses]
        : grants.observes.has(workflow)
          ? WORKFLOW_EXECUTION_ACTIONS.observes
          : [];
  // StartExecution is granted on the state machine, the others on its executions.
  const onRightResource = operation === 'StartExecution' ? typeof body.stateMachineArn === 'string' : typeof body.executionArn === 'string';
  return allowed.includes(action) && onRightResource ? undefined : refusal(principal, action, resource);
}

// ——— Cognito ———

/** Why the user pool refuses this principal an IAM-authorized operation, if it does: only its pool, only its actions. */
export function userPoolRefusal(principal: Principal, operation: string, body: Record<string, any>, resources: TwinResources): Refusal | undefined {
  const { grants } = principal;
  if (!grants) return undefined;
  const action = `cognito-idp:${operation}`;
  const pool = typeof body.UserPoolId === 'string' ? body.UserPoolId : '*';
  const resource = `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${pool}`;
  return grants.userPool.has(action) && pool === resources.userPoolId ? undefined : refusal(principal, action, resource);
}

// ——— The WebSocket API's @connections ———

/** Why the management API refuses this principal the call, if it does: the fan-out may post (POST) to connections, nothing else. */
export function connectionsRefusal(principal: Principal, method: string, path: string): Refusal | undefined {
  const { grants } = principal;
  if (!grants) return undefined;
  const resource = `arn:aws:execute-api:${REGION}:${ACCOUNT}:local/local/${method.toUpperCase()}${path}`;
  return grants.postsToConnections && method.toUpperCase() === 'POST' ? undefined : refusal(principal, 'execute-api:ManageConnections', resource);
}
