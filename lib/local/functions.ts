// Every function the project deploys, as the developer tools see it (`npm run invoke`, `npm run event`): the routes
// of the route table, the tasks of the workflows, workflow-ended, and the realtime functions. Each has a contract —
// the zod schemas its handler validates with (routes), or a schema of the input its handler's type declares (tasks,
// realtime) — and a sample event that passes it: a route's payload v2 event built by the local gateway's own
// builder, a task's input worked out from its workflow's ASL.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { CheckoutRequest, ClothingItemsQuery, CreateUploadUrlRequest, IDEMPOTENCY_HEADER, PurchaseCreditsRequest, RefundRequest, RegisterClothingItemRequest, UpdateClothingItemRequest } from '../../lambdas/contracts/api.js';
import { EditImageRequest, GenerateImageRequest, GenerationsQuery, MODEL_DESCRIPTION_PLACEHOLDER, UpscaleImageRequest } from '../../lambdas/contracts/generations.js';
import { CreateImportRequest, SelectImportRequest } from '../../lambdas/contracts/imports.js';
import { GenerateVideoRequest, GetVideoUrlRequest, PollOperationRequest } from '../../lambdas/contracts/video.js';
import { GenerateBatchRequest } from '../../lambdas/contracts/batch.js';
import { CreateApiKeyRequest } from '../../lambdas/contracts/api-keys.js';
import { AccountDeletionInput, DeleteAccountRequest } from '../../lambdas/contracts/account.js';
import { CreateWebhookRequest } from '../../lambdas/contracts/webhooks.js';
import { CreateTicketRequest } from '../../lambdas/contracts/support.js';
import { CreateModelRequest, UpdateModelRequest } from '../../lambdas/contracts/models.js';
import type { DeliveryState } from '../../lambdas/domain/webhooks/start.js';
import type { BatchWorkflowInput } from '../../lambdas/domain/batch/service.js';
import type { GenerationWorkflowInput } from '../../lambdas/domain/generation/service.js';
import type { VideoWorkflowInput } from '../../lambdas/domain/video/jobs.js';
import type { OutputResult } from '../../lambdas/domain/video/settle.js';
import type { ExecutionStatusChangeEvent } from '../../lambdas/handlers/workflow-ended.js';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { RECONCILER_FUNCTION, WORKFLOW_ENDED_FUNCTION, WORKFLOWS, type WorkflowName } from '../../lambdas/workflows.js';
import { ReconcilerInput } from '../../lambdas/contracts/operations.js';
import { TASK_INPUTS } from '../../lambdas/contracts/workflows.js';
import { REALTIME_FUNCTIONS, type RealtimeHandler } from '../../lambdas/realtime-functions.js';
import { buildHttpEvent } from './gateway.js';
import { DEMO_PRODUCTS, productPhoto } from './products.js';

export type FunctionKind = 'route' | 'task' | 'realtime';

export interface KnownFunction {
  /** The handler module's name (lambdas/handlers/<name>.ts): what the tools are called with. */
  name: string;
  kind: FunctionKind;
  route?: RouteDefinition;
  /** A task's workflow and state (the placeholder in the ASL). */
  workflow?: WorkflowName;
  state?: string;
}

type RouteHandler = (typeof ROUTES)[number]['handler'];
const REALTIME_HANDLERS: RealtimeHandler[] = Object.values(REALTIME_FUNCTIONS).map((fn) => fn.handler);
type OtherHandler = RealtimeHandler | typeof WORKFLOW_ENDED_FUNCTION.handler | typeof RECONCILER_FUNCTION.handler;

export function knownFunctions(): KnownFunction[] {
  const routes = ROUTES.map((route): KnownFunction => ({ name: route.handler, kind: 'route', route }));
  const tasks = (Object.entries(WORKFLOWS) as [WorkflowName, (typeof WORKFLOWS)[WorkflowName]][]).flatMap(([workflow, definition]) =>
    Object.entries(definition.tasks).map(([state, task]): KnownFunction => ({ name: task.handler, kind: 'task', workflow, state })),
  );
  const others = [WORKFLOW_ENDED_FUNCTION.handler, RECONCILER_FUNCTION.handler, ...REALTIME_HANDLERS].map((name): KnownFunction => ({ name, kind: 'realtime' }));
  return [...routes, ...tasks, ...others];
}

export function findFunction(name: string): KnownFunction | undefined {
  return knownFunctions().find((fn) => fn.name === name);
}

/** What the tools answer for a name they don't know: every name they do, by kind. */
export function unknownFunctionMessage(name: string): string {
  const functions = knownFunctions();
  const list = (kind: FunctionKind) =>
    functions
      .filter((fn) => fn.kind === kind)
      .map((fn) => `    ${fn.name.padEnd(30)}${fn.route ? `${fn.route.method} ${fn.route.path}` : fn.workflow ? `${fn.workflow} workflow, state ${fn.state}` : ''}`)
      .join('\n');
  return [
    `Unknown function '${name}'. Known functions:`,
    '  routes (HTTP API):',
    list('route'),
    '  workflow tasks:',
    list('task'),
    '  workflow-ended and realtime:',
    list('realtime'),
  ].join('\n');
}

// ——— Sample identity ———

/** The caller of sample events; `npm run invoke -- --as <email>` replaces it with a real cognito-local user. */
export const SAMPLE_USER = { sub: '6f1c2e0d-5b8a-4c1e-9f3a-2b7d4e6a8c10', email: 'me@example.com' } as const;

/** The claims API Gateway's JWT authorizer hands on for a Cognito ID token (all strings, as it does). */
export function sampleClaims(user: { sub: string; email: string } = SAMPLE_USER): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: user.sub,
    email: user.email,
    email_verified: 'true',
    'cognito:username': user.sub,
    aud: 'local-client-id',
    iss: 'http://localhost:9229/local_pool',
    token_use: 'id',
    auth_time: String(now),
    iat: String(now),
    exp: String(now + 3600),
  };
}

// ——— Routes ———

interface RouteContract {
  body?: z.ZodType;
  query?: z.ZodType;
  /** A spending request: it needs an Idempotency-Key header. */
  idempotent?: boolean;
  sample?: { body?: () => Promise<unknown> | unknown; query?: Record<string, string>; params?: Record<string, string> };
}

const SAMPLE_IDS = { model: 'mdl_sample', clothingItem: 'sample-clothing-item', generation: 'sample-generation', job: 'sample-job', batch: 'sample-batch', webhook: 'we_sample' } as const;

/** A small product photo (the demo's T-shirt), as API callers send one inline. */
const sampleProductBase64 = async () => (await productPhoto(DEMO_PRODUCTS[0]!, 300, 350)).toString('base64');

/** Each route's contract: the same zod schemas its handler declares (lambdas/handlers/<name>.ts). */
export const ROUTE_CONTRACTS: Record<RouteHandler, RouteContract> = {
  'get-profile': {},
  'list-credit-transactions': {},
  'list-pricing-tiers': {},
  'purchase-credits': { body: PurchaseCreditsRequest, idempotent: true, sample: { body: () => ({ credits: 170 }) } },
  'create-checkout-session': { body: CheckoutRequest, idempotent: true, sample: { body: () => ({ credits: 170 }) } },
  // The webhook's body is Stripe's signed raw event, not a contract of ours: sign one with the stripe library.
  'stripe-webhook': {},
  'request-refund': { body: RefundRequest, sample: { body: () => ({ transactionId: 'purchase#cs_test_sample' }) } },
  'list-purchases': {},
  'create-clothing-upload-url': {
    body: CreateUploadUrlRequest,
    sample: { body: () => ({ fileName: 'red-tshirt.jpg', contentType: 'image/jpeg', sizeBytes: 48_213 }) },
  },
  'register-clothing-item': {
    body: RegisterClothingItemRequest,
    sample: { body: () => ({ imageKey: `${SAMPLE_USER.sub}/clothing/sample-upload.jpg`, name: 'Red logo T-shirt', description: 'Cotton crew-neck T-shirt.' }) },
  },
  'list-clothing-items': { query: ClothingItemsQuery, sample: { query: { active: 'true' } } },
  'get-clothing-item': { sample: { params: { id: SAMPLE_IDS.clothingItem } } },
  'update-clothing-item': { body: UpdateClothingItemRequest, sample: { params: { id: SAMPLE_IDS.clothingItem }, body: () => ({ name: 'Red logo T-shirt (2026)' }) } },
  'delete-clothing-item': { sample: { params: { id: SAMPLE_IDS.clothingItem } } },
  'create-model-upload-url': {
    body: CreateUploadUrlRequest,
    sample: { body: () => ({ fileName: 'portrait.jpg', contentType: 'image/jpeg', sizeBytes: 96_000 }) },
  },
  'create-model': {
    body: CreateModelRequest,
    sample: { body: () => ({ name: 'Maya', description: 'woman in her late twenties, warm brown skin, shoulder-length curly black hair, relaxed smile' }) },
  },
  'list-models': {},
  'update-model': { body: UpdateModelRequest, sample: { params: { id: SAMPLE_IDS.model }, body: () => ({ name: 'Maya (spring)' }) } },
  'delete-model': { sample: { params: { id: SAMPLE_IDS.model } } },
  'generate-ai-image': {
    body: GenerateImageRequest,
    idempotent: true,
    sample: {
      body: async () => ({
        imageData: await sampleProductBase64(),
        productType: 'clothing',
        prompt: MODEL_DESCRIPTION_PLACEHOLDER.replace(/^e\.g\. /, ''),
        cameraZoom: 'auto',
        imageSize: '1k',
        promptEnhance: false,
      }),
    },
  },
  'edit-ai-image': { body: EditImageRequest, idempotent: true, sample: { body: () => ({ imageUrl: SAMPLE_IDS.generation, editPrompt: 'background white' }) } },
  'upscale-ai-image': { body: UpscaleImageRequest, idempotent: true, sample: { body: () => ({ imageUrl: SAMPLE_IDS.generation, targetResolution: '2k' }) } },
  'create-generation-upload-url': {
    body: CreateUploadUrlRequest,
    sample: { body: () => ({ fileName: 'product.png', contentType: 'image/png', sizeBytes: 204_800 }) },
  },
  'list-generations': { query: GenerationsQuery, sample: { query: { type: 'image', limit: '10' } } },
  'get-generation': { sample: { params: { id: SAMPLE_IDS.generation } } },
  'get-edit-instructions': {},
  'generate-video': {
    body: GenerateVideoRequest,
    idempotent: true,
    sample: { body: async () => ({ imageBase64: await sampleProductBase64(), prompt: 'Pivot', duration: 5, aspect_ratio: '9:16', output_count: 1 }) },
  },
  'poll-operation': {
    body: PollOperationRequest,
    sample: { body: () => ({ jobId: SAMPLE_IDS.job, operationName: `arn:aws:states:us-east-1:000000000000:execution:modelloop-video:${SAMPLE_IDS.job}` }) },
  },
  'get-video-url': { body: GetVideoUrlRequest, sample: { body: () => ({ jobId: SAMPLE_IDS.job }) } },
  'cancel-job': { sample: { params: { id: SAMPLE_IDS.job } } },
  'list-jobs': {},
  'create-import': { body: CreateImportRequest, sample: { body: () => ({ url: 'https://shop.example/products/linen-shirt' }) } },
  'select-import-image': {
    body: SelectImportRequest,
    sample: {
      params: { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' },
      body: () => ({ imageUrl: 'https://shop.example/cdn/linen-shirt-front.jpg', purpose: 'clothing' }),
    },
  },
  'generate-batch': {
    body: GenerateBatchRequest,
    idempotent: true,
    sample: {
      body: () => ({
        batchItems: [{ clothingItemId: SAMPLE_IDS.clothingItem, prompt: 'young female model', cameraAngles: ['Product', 'Front'], backdrop: 'white' }],
        imageSize: '1k',
      }),
    },
  },
  'list-batches': {},
  'get-batch': { sample: { params: { id: SAMPLE_IDS.batch } } },
  'download-batch': { sample: { params: { id: SAMPLE_IDS.batch } } },
  'get-credit-summary': {},
  'get-generation-durations': {},
  'create-api-key': { body: CreateApiKeyRequest, sample: { body: () => ({ name: 'Shopify sync' }) } },
  'list-api-keys': {},
  'revoke-api-key': { sample: { params: { id: 'key_sample' } } },
  'get-openapi': {},
  // Not the caller's address, so the sample is refused (EMAIL_MISMATCH): with the caller's own, it really deletes them.
  'request-account-deletion': { body: DeleteAccountRequest, sample: { body: () => ({ confirmEmail: 'type-the-account-address@example.com' }) } },
  'export-account-data': {},
  'create-webhook': { body: CreateWebhookRequest, sample: { body: () => ({ url: 'http://localhost:4000/webhooks', events: ['generation.completed', 'video.completed'] }) } },
  'list-webhooks': {},
  'list-webhook-deliveries': {},
  'delete-webhook': { sample: { params: { id: SAMPLE_IDS.webhook } } },
  'send-webhook-test': { sample: { params: { id: SAMPLE_IDS.webhook } } },
  'create-support-ticket': { body: CreateTicketRequest, sample: { body: () => ({ email: 'seller@example.com', subject: 'A question', message: 'How do I…?' }) } },
  'list-support-tickets': {},
};

/** A route path with its parameters filled in: /clothing-items/{id} → /clothing-items/abc */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\+?\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
}

export interface RouteRequest {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

/** The payload v2 event of a route, as the local gateway builds it for a request (and API Gateway in the cloud). */
export function routeEvent(route: RouteDefinition, request: RouteRequest, claims: Record<string, string> | undefined) {
  const params = request.params ?? {};
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
  const headers: Record<string, string> = {
    host: 'localhost:5173',
    'user-agent': 'modelloop-invoke',
    ...(body.length ? { 'content-type': 'application/json' } : {}),
    ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
  };
  return buildHttpEvent(
    {
      route,
      params,
      path: fillPath(route.path, params),
      rawQueryString: new URLSearchParams(request.query ?? {}).toString(),
      headers,
      body,
    },
    route.auth === 'user' ? claims : undefined,
  );
}

async function sampleRouteEvent(route: RouteDefinition) {
  const contract = ROUTE_CONTRACTS[route.handler as RouteHandler];
  return routeEvent(
    route,
    {
      body: await contract.sample?.body?.(),
      query: contract.sample?.query,
      params: contract.sample?.params,
      // A fresh key per sample: the same key with another body is refused (409), so an edited sample needs its own.
      headers: contract.idempotent ? { [IDEMPOTENCY_HEADER]: randomUUID() } : {},
    },
    sampleClaims(),
  );
}

// ——— Workflow tasks: contracts from the handlers' input types, samples from the ASL ———

// Each task's input schema is the one its handler checks at run time (lambdas/contracts/workflows.ts).
const TASK_CONTRACTS: Record<string, z.ZodType | undefined> = TASK_INPUTS;

/** What each workflow is started with (the routes' startExecution input). */
const EXECUTION_INPUTS: Record<WorkflowName, Record<string, unknown>> = {
  generation: { userId: SAMPLE_USER.sub, generationId: SAMPLE_IDS.generation } satisfies GenerationWorkflowInput,
  video: { userId: SAMPLE_USER.sub, jobId: SAMPLE_IDS.job, outputs: [0] } satisfies VideoWorkflowInput,
  batch: { userId: SAMPLE_USER.sub, batchId: SAMPLE_IDS.batch, photoIds: [`${SAMPLE_IDS.batch}-p000`], maxConcurrency: 4 } satisfies BatchWorkflowInput,
  deleteAccount: { userId: SAMPLE_USER.sub, tombstoneId: 'deleted-00000000-0000-4000-8000-000000000000' } satisfies AccountDeletionInput,
  webhookDelivery: {
    userId: SAMPLE_USER.sub,
    endpointId: SAMPLE_IDS.webhook,
    event: { id: 'evt_sample', type: 'webhook.test', timestamp: '2026-11-23T00:00:00.000Z', data: { endpoint_id: SAMPLE_IDS.webhook } },
    attempt: 1,
    delays: [5, 300],
  } satisfies DeliveryState,
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

// ——— workflow-ended and realtime ———

const OTHER_CONTRACTS: Record<OtherHandler, z.ZodType> = {
  reconciler: ReconcilerInput,
  'workflow-ended': z.object({
    source: z.literal('aws.states'),
    'detail-type': z.literal('Step Functions Execution Status Change'),
    detail: z.object({ executionArn: z.string(), stateMachineArn: z.string(), name: z.string(), status: z.string(), input: z.string().nullable() }),
  }),
  'ws-authorize': z.object({ type: z.literal('REQUEST'), methodArn: z.string(), queryStringParameters: z.object({ token: z.string().min(1) }) }),
  'ws-connect': z.object({ requestContext: z.object({ routeKey: z.literal('$connect'), connectionId: z.string().min(1), authorizer: z.object({ userId: z.string().min(1) }) }) }),
  'ws-disconnect': z.object({ requestContext: z.object({ routeKey: z.literal('$disconnect'), connectionId: z.string().min(1) }) }),
  'ws-fan-out': z.object({
    Records: z.array(z.object({ eventName: z.string(), eventSourceARN: z.string(), dynamodb: z.object({ Keys: z.record(z.string(), z.unknown()), SequenceNumber: z.string() }) })).min(1),
  }),
};

function webSocketContext(routeKey: '$connect' | '$disconnect', eventType: 'CONNECT' | 'DISCONNECT') {
  const now = Date.now();
  return {
    routeKey,
    eventType,
    extendedRequestId: randomUUID(),
    requestTime: new Date(now).toUTCString(),
    messageDirection: 'IN',
    stage: 'local',
    connectedAt: now,
    requestTimeEpoch: now,
    identity: { sourceIp: '127.0.0.1', userAgent: 'modelloop-invoke' },
    requestId: randomUUID(),
    domainName: 'localhost:5173',
    connectionId: 'c2FtcGxlLWNvbm4',
    apiId: 'local',
  };
}

function sampleOtherEvent(name: OtherHandler, env: NodeJS.ProcessEnv): unknown {
  const region = env.AWS_REGION ?? 'us-east-1';
  switch (name) {
    case 'workflow-ended': {
      const stateMachineArn = env.WORKFLOW_VIDEO_ARN ?? `arn:aws:states:${region}:000000000000:stateMachine:modelloop-video`;
      const event: ExecutionStatusChangeEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Step Functions Execution Status Change',
        source: 'aws.states',
        account: '000000000000',
        time: new Date().toISOString(),
        region,
        resources: [`${stateMachineArn.replace(':stateMachine:', ':execution:')}:${SAMPLE_IDS.job}`],
        detail: {
          executionArn: `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${SAMPLE_IDS.job}`,
          stateMachineArn,
          name: SAMPLE_IDS.job,
          status: 'TIMED_OUT',
          input: JSON.stringify(EXECUTION_INPUTS.video),
        },
      };
      return event;
    }
    case 'reconciler':
      // What the schedule sends (an EventBridge Scheduled Event); the optional fields choose the twin's start criterion.
      return {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '000000000000',
        time: new Date().toISOString(),
        region,
        resources: [`arn:aws:events:${region}:000000000000:rule/modelloop-reconciler`],
        detail: {},
      };
    case 'ws-authorize':
      return {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:${region}:000000000000:local/local/$connect`,
        headers: { host: 'localhost:5173' },
        queryStringParameters: { token: '<a Cognito ID token: npm run invoke -- ws-authorize --as you@example.com>' },
        requestContext: webSocketContext('$connect', 'CONNECT'),
      };
    case 'ws-connect':
      return {
        headers: { host: 'localhost:5173' },
        isBase64Encoded: false,
        requestContext: { ...webSocketContext('$connect', 'CONNECT'), authorizer: { userId: SAMPLE_USER.sub, principalId: SAMPLE_USER.sub } },
      };
    case 'ws-disconnect':
      return {
        headers: { host: 'localhost:5173' },
        isBase64Encoded: false,
        requestContext: { ...webSocketContext('$disconnect', 'DISCONNECT'), disconnectStatusCode: 1000, disconnectReason: '' },
      };
    case 'ws-fan-out': {
      const table = env.TABLE_PROFILES ?? 'modelloop-profiles';
      return {
        Records: [
          {
            eventID: randomUUID(),
            eventName: 'MODIFY',
            eventVersion: '1.1',
            eventSource: 'aws:dynamodb',
            awsRegion: region,
            eventSourceARN: `arn:aws:dynamodb:${region}:000000000000:table/${table}/stream/2026-11-23T00:00:00.000`,
            dynamodb: {
              ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
              Keys: { id: { S: SAMPLE_USER.sub } },
              OldImage: { id: { S: SAMPLE_USER.sub }, current_credits: { N: '5' } },
              NewImage: { id: { S: SAMPLE_USER.sub }, current_credits: { N: '4' } },
              SequenceNumber: '100000000000000000001',
              SizeBytes: 64,
              StreamViewType: 'NEW_AND_OLD_IMAGES',
            },
          },
        ],
      };
    }
  }
}

// ——— The tools' entry points ———

/** A valid sample event for a function (throws for an unknown name). `env` names tables and workflows when a twin runs. */
export async function sampleEvent(name: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const fn = findFunction(name);
  if (!fn) throw new Error(unknownFunctionMessage(name));
  if (fn.kind === 'route') return sampleRouteEvent(fn.route!);
  if (fn.kind === 'task') return sampleTaskInput(fn.workflow!, fn.state!);
  return sampleOtherEvent(name as OtherHandler, env);
}

/** Checks an event against the function's contract; returns the problems (none: it passes). */
export function contractProblems(name: string, event: unknown): string[] {
  const fn = findFunction(name);
  if (!fn) return [unknownFunctionMessage(name)];
  const issues = (schema: z.ZodType | undefined, value: unknown, where: string) => {
    if (!schema) return [];
    const result = schema.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => `${where}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`);
  };
  if (fn.kind === 'task') {
    const schema = TASK_CONTRACTS[name];
    return schema ? issues(schema, event, 'input') : [`${name}: no input schema in lambdas/contracts/workflows.ts TASK_INPUTS`];
  }
  if (fn.kind === 'realtime') return issues(OTHER_CONTRACTS[name as OtherHandler], event, 'event');
  const contract = ROUTE_CONTRACTS[name as RouteHandler];
  const httpEvent = event as ReturnType<typeof routeEvent>;
  const problems: string[] = [];
  if (httpEvent.version !== '2.0' || httpEvent.routeKey !== `${fn.route!.method} ${fn.route!.path}`) problems.push(`routeKey: expected '${fn.route!.method} ${fn.route!.path}'`);
  if (fn.route!.auth === 'user' && !httpEvent.requestContext?.authorizer?.jwt?.claims?.sub) problems.push('requestContext.authorizer.jwt.claims.sub: missing');
  if (contract.idempotent && !httpEvent.headers?.[IDEMPOTENCY_HEADER]) problems.push(`headers.${IDEMPOTENCY_HEADER}: missing`);
  for (const name of fn.route!.path.match(/\{(\w+)\+?\}/g) ?? []) {
    const param = name.replace(/[{}+]/g, '');
    if (!httpEvent.pathParameters?.[param]) problems.push(`pathParameters.${param}: missing`);
  }
  const body = httpEvent.body ? JSON.parse(httpEvent.isBase64Encoded ? Buffer.from(httpEvent.body, 'base64').toString('utf8') : httpEvent.body) : undefined;
  problems.push(...issues(contract.body, body, 'body'), ...issues(contract.query, httpEvent.queryStringParameters ?? {}, 'query'));
  return problems;
}
