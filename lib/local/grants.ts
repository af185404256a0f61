// Each function on the twin gets what its declaration grants it, as CDK grants it (lib/constructs/function-factory.ts),
// and no more. The handlers share one process here, so the twin's handler loader runs each call (and each module's
// first load) as its function: while it runs,
//   - the environment shows it only the names of the tables, buckets, workflows and user pool it declares (as the
//     construct sets them), so a missing grant fails here as it does in a Lambda: `requireEnv` names the variable;
//   - its SDK clients refuse a table (and its indexes), bucket, state machine or user pool outside its grants, or an
//     action its access level does not allow (a write to a table it reads), with AccessDenied before any request.
// The declarations are the ones CDK reads: lambdas/routes.ts (with the caller gate's tables), lambdas/workflows.ts,
// lambdas/realtime-functions.ts. A function the declarations don't name runs unrestricted.
//   - a secret it declares (lambdas/core/secrets.ts) is given to it by value; the others are hidden like any name.
// Not covered: presigned URLs (signed with the twin's one key, checked by lib/local/s3-signatures.ts for signature,
// not per-function access) and the API-key pepper (set for all).
import { AsyncLocalStorage } from 'node:async_hooks';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { USER_POOL_ENV, workflowEnvName } from '../../lambdas/core/config.js';
import { SECRETS, secretIdEnvName, secretValueEnvName, type SecretName } from '../../lambdas/core/secrets.js';
import { BUCKETS, TABLES, bucketEnvName, tableEnvName, type BucketName, type TableName } from '../../lambdas/data/tables.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { REALTIME_FUNCTIONS } from '../../lambdas/realtime-functions.js';
import { API_KEY_AUTHORIZER, ROUTES, routeTables, USER_POOL_ACTIONS, type Access, type BucketAccess, type UserPoolAccess } from '../../lambdas/routes.js';
import { RECONCILER_FUNCTION, WEBHOOK_EMIT_FUNCTION, WEBHOOK_EMIT_TABLES, WORKFLOW_ENDED_FUNCTION, WORKFLOWS } from '../../lambdas/workflows.js';

/** What one function's declaration grants. */
export interface FunctionDeclaration {
  handler: string;
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, BucketAccess>>;
  workflows?: readonly string[];
  /** Workflows whose executions it only looks up (DescribeExecution). */
  observes?: readonly string[];
  userPool?: UserPoolAccess;
  /** Tables whose names it is given without access (the fan-out tells a streamed record's table by its name). */
  tableNames?: readonly TableName[];
  secrets?: readonly SecretName[];
}

export interface FunctionGrants {
  handler: string;
  tables: Map<TableName, Access>;
  buckets: Map<BucketName, BucketAccess>;
  workflows: Set<string>;
  observes: Set<string>;
  /** The user-pool actions it may call (none: not even the pool's id). */
  userPool: Set<string>;
  tableNames: Set<TableName>;
  secrets: Set<SecretName>;
}

/** Every function's declaration, as CDK builds the functions. */
export function declaredFunctions(): FunctionDeclaration[] {
  return [
    ...ROUTES.map((route) => ({ handler: route.handler, tables: routeTables(route), buckets: route.buckets, workflows: route.workflows, userPool: route.userPool, secrets: route.secrets })),
    API_KEY_AUTHORIZER,
    ...Object.values(WORKFLOWS).flatMap((workflow) => Object.values(workflow.tasks as Record<string, FunctionDeclaration>)),
    WORKFLOW_ENDED_FUNCTION,
    RECONCILER_FUNCTION,
    // The emitter, like the fan-out, is given the names of the streamed tables it tells changes apart by.
    { ...WEBHOOK_EMIT_FUNCTION, tableNames: WEBHOOK_EMIT_TABLES },
    ...Object.values(REALTIME_FUNCTIONS),
    { handler: REALTIME_FUNCTIONS.fanOut.handler, tableNames: STREAMED_TABLES },
  ];
}

/** Two declarations of one function: the same level, or write (which has the actions of read and of put). */
const wider = <A extends BucketAccess>(a: A | undefined, b: A): A => (a === undefined || a === b ? b : ('write' as A));

/** The grants of one handler module: the union of the declarations that serve it (a task may serve two workflows). */
export function grantsOf(handler: string, declarations: FunctionDeclaration[] = declaredFunctions()): FunctionGrants | undefined {
  const own = declarations.filter((declaration) => declaration.handler === handler);
  if (!own.length) return undefined;
  const grants: FunctionGrants = { handler, tables: new Map(), buckets: new Map(), workflows: new Set(), observes: new Set(), userPool: new Set(), tableNames: new Set(), secrets: new Set() };
  for (const declaration of own) {
    for (const [table, access] of Object.entries(declaration.tables ?? {}) as [TableName, Access][]) grants.tables.set(table, wider(grants.tables.get(table), access));
    for (const [bucket, access] of Object.entries(declaration.buckets ?? {}) as [BucketName, BucketAccess][]) grants.buckets.set(bucket, wider(grants.buckets.get(bucket), access));
    for (const workflow of declaration.workflows ?? []) grants.workflows.add(workflow);
    for (const workflow of declaration.observes ?? []) grants.observes.add(workflow);
    for (const table of declaration.tableNames ?? []) grants.tableNames.add(table);
    for (const secret of declaration.secrets ?? []) grants.secrets.add(secret);
    for (const action of declaration.userPool ? USER_POOL_ACTIONS[declaration.userPool] : []) grants.userPool.add(action);
  }
  return grants;
}

const running = new AsyncLocalStorage<FunctionGrants>();

/** Runs `work` (a handler's call, or its module's first load) as the function `handler`, with its grants. */
export function runAsFunction<T>(handler: string, work: () => T, declarations?: FunctionDeclaration[]): T {
  installGrantChecks();
  const grants = grantsOf(handler, declarations);
  return grants ? running.run(grants, work) : running.exit(work);
}

/** The environment variables a grant gives: every table's, bucket's and workflow's, and the user pool's. */
const GRANTED_VARIABLES = new Set([
  ...(Object.keys(TABLES) as TableName[]).map(tableEnvName),
  ...(Object.keys(BUCKETS) as BucketName[]).map(bucketEnvName),
  ...Object.keys(WORKFLOWS).map(workflowEnvName),
  USER_POOL_ENV,
  ...(Object.keys(SECRETS) as SecretName[]).flatMap((secret) => [secretValueEnvName(secret), secretIdEnvName(secret)]),
]);

function visible(grants: FunctionGrants, name: string): boolean {
  if (!GRANTED_VARIABLES.has(name)) return true;
  if (name === USER_POOL_ENV) return grants.userPool.size > 0;
  for (const table of grants.tables.keys()) if (tableEnvName(table) === name) return true;
  for (const table of grants.tableNames) if (tableEnvName(table) === name) return true;
  for (const bucket of grants.buckets.keys()) if (bucketEnvName(bucket) === name) return true;
  for (const workflow of [...grants.workflows, ...grants.observes]) if (workflowEnvName(workflow) === name) return true;
  for (const secret of grants.secrets) if (secretValueEnvName(secret) === name || secretIdEnvName(secret) === name) return true;
  return false;
}

let installed: NodeJS.ProcessEnv | undefined;

/** Puts the environment filter and the SDK check in place, once per process. */
function installGrantChecks(): void {
  if (installed) return;
  const env = process.env;
  installed = env;
  const hidden = (name: string | symbol) => {
    const grants = running.getStore();
    return grants !== undefined && typeof name === 'string' && !visible(grants, name);
  };
  process.env = new Proxy(env, {
    get: (target, name) => (hidden(name) ? undefined : Reflect.get(target, name)),
    has: (target, name) => !hidden(name) && Reflect.has(target, name),
    ownKeys: (target) => Reflect.ownKeys(target).filter((name) => !hidden(name)),
    getOwnPropertyDescriptor: (target, name) => (hidden(name) ? undefined : Reflect.getOwnPropertyDescriptor(target, name)),
    // Writes go to the real environment as plain assignments: process.env refuses the receiver-based defineProperty
    // that Reflect.set would make through the proxy (Object.assign(process.env, …) would throw).
    set: (target, name, value) => {
      (target as Record<string | symbol, unknown>)[name] = value;
      return true;
    },
  });

  const clients = new Set([DynamoDBClient, DynamoDBDocumentClient, S3Client, SFNClient, CognitoIdentityProviderClient].map((client) => Object.getPrototypeOf(client.prototype) as ClientPrototype));
  for (const prototype of clients) {
    const send = prototype.send;
    prototype.send = function checkedSend(this: { config?: { serviceId?: string } }, command: SentCommand, ...rest: unknown[]) {
      const grants = running.getStore();
      const refusal = grants && refuse(grants, this.config?.serviceId, command, env);
      if (refusal) {
        const callback = rest.find((arg) => typeof arg === 'function') as ((error: unknown) => void) | undefined;
        if (callback) return void callback(refusal);
        return Promise.reject(refusal);
      }
      return send.call(this, command, ...rest);
    };
  }
}

interface ClientPrototype {
  send(this: unknown, command: SentCommand, ...rest: unknown[]): unknown;
}
interface SentCommand {
  input?: Record<string, unknown>;
  constructor: { name: string };
}

/** AWS's refusal of an action no policy allows. */
export class AccessDenied extends Error {
  readonly $fault = 'client';
  readonly $metadata = { httpStatusCode: 403 };
  constructor(service: string | undefined, grants: FunctionGrants, action: string, resource: string) {
    super(
      `User: arn:aws:sts::000000000000:assumed-role/${grants.handler}-role/${grants.handler} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
    );
    this.name = service === 'S3' ? 'AccessDenied' : 'AccessDeniedException';
  }
}

/** The physical name → logical name of every resource of one kind, from the twin's environment. */
function physicalNames<N extends string>(names: N[], envName: (name: N) => string, env: NodeJS.ProcessEnv): Map<string, N> {
  return new Map(names.flatMap((name) => (env[envName(name)] ? [[env[envName(name)]!, name] as [string, N]] : [])));
}

const DYNAMODB_ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};
const DYNAMODB_WRITES = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)$/;

/** What each access level of a bucket allows: the construct's BUCKET_*_ACTIONS, and ListBucket for read and write. */
const BUCKET_ACTIONS: Record<BucketAccess, string[]> = {
  read: ['s3:GetObject', 's3:ListBucket'],
  write: ['s3:GetObject', 's3:ListBucket', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'],
  put: ['s3:PutObject', 's3:PutObjectTagging'],
};
const S3_ACTIONS: Record<string, string> = {
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  ListObjects: 's3:ListBucket',
  ListObjectsV2: 's3:ListBucket',
  PutObject: 's3:PutObject',
  CopyObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:PutObject',
  PutObjectTagging: 's3:PutObjectTagging',
  DeleteObject: 's3:DeleteObject',
  DeleteObjects: 's3:DeleteObject',
};

function refuse(grants: FunctionGrants, service: string | undefined, command: SentCommand, env: NodeJS.ProcessEnv): AccessDenied | undefined {
  const input = command.input ?? {};
  const operation = command.constructor.name.replace(/Command$/, '');
  if (service === 'DynamoDB') {
    const action = DYNAMODB_ACTIONS[operation] ?? operation;
    const tables = physicalNames(Object.keys(TABLES) as TableName[], tableEnvName, env);
    for (const physical of dynamoDbTables(input)) {
      const table = tables.get(physical);
      const access = table && grants.tables.get(table);
      if (!access || (DYNAMODB_WRITES.test(action) && access !== 'write')) return new AccessDenied(service, grants, `dynamodb:${action}`, `arn:aws:dynamodb:us-east-1:000000000000:table/${physical}`);
    }
  } else if (service === 'S3' && typeof input.Bucket === 'string') {
    const action = S3_ACTIONS[operation] ?? `s3:${operation}`;
    const bucket = physicalNames(Object.keys(BUCKETS) as BucketName[], bucketEnvName, env).get(input.Bucket);
    const access = bucket && grants.buckets.get(bucket);
    if (!access || !BUCKET_ACTIONS[access].includes(action)) return new AccessDenied(service, grants, action, `arn:aws:s3:::${input.Bucket}`);
    if (operation === 'CopyObject' && typeof input.CopySource === 'string') {
      const source = physicalNames(Object.keys(BUCKETS) as BucketName[], bucketEnvName, env).get(decodeURIComponent(input.CopySource).replace(/^\//, '').split('/')[0]!);
      const sourceAccess = source && grants.buckets.get(source);
      if (!sourceAccess || !BUCKET_ACTIONS[sourceAccess].includes('s3:GetObject')) return new AccessDenied(service, grants, 's3:GetObject', `arn:aws:s3:::${input.CopySource}`);
    }
  } else if (service === 'SFN') {
    const arn = typeof input.stateMachineArn === 'string' ? input.stateMachineArn : typeof input.executionArn === 'string' ? stateMachineOf(input.executionArn) : undefined;
    const workflow = arn && physicalNames(Object.keys(WORKFLOWS), workflowEnvName, env).get(arn);
    // The construct's grants: start, describe and stop a workflow it uses; describe one it observes.
    const allowed = workflow && (grants.workflows.has(workflow) ? ['StartExecution', 'DescribeExecution', 'StopExecution'] : grants.observes.has(workflow) ? ['DescribeExecution'] : []);
    if (!allowed || !allowed.includes(operation)) return new AccessDenied(service, grants, `states:${operation}`, String(input.executionArn ?? input.stateMachineArn ?? '*'));
  } else if (service === 'Cognito Identity Provider' && /^(Admin|ListUsers)/.test(operation) && !grants.userPool.has(`cognito-idp:${operation}`)) {
    return new AccessDenied(service, grants, `cognito-idp:${operation}`, String(input.UserPoolId));
  }
  return undefined;
}

/** Every table a DynamoDB request names, whatever its shape (single item, query, batch, transaction). */
function dynamoDbTables(input: Record<string, unknown>): string[] {
  const tables = new Set<string>();
  if (typeof input.TableName === 'string') tables.add(input.TableName);
  if (input.RequestItems && typeof input.RequestItems === 'object') for (const table of Object.keys(input.RequestItems)) tables.add(table);
  if (Array.isArray(input.TransactItems)) {
    for (const item of input.TransactItems as Record<string, { TableName?: string } | undefined>[]) {
      for (const part of Object.values(item)) if (typeof part?.TableName === 'string') tables.add(part.TableName);
    }
  }
  return [...tables];
}

/** arn:…:execution:<state machine>:<execution name> → arn:…:stateMachine:<state machine>. */
const stateMachineOf = (executionArn: string) => executionArn.replace(':execution:', ':stateMachine:').replace(/:[^:]+$/, '');
