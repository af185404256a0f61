// The local twin: the whole studio on one machine with no AWS account. Emulators that speak the AWS protocols
// (DynamoDB Local, s3rver, cognito-local, the Step Functions API) plus the local gateway; each function runs from the
// bundle that deploys (bundles.ts), in workers of its own (lambda-runtime.ts), configured through the same environment
// variables with only the endpoints pointing here, and with credentials of its own that every emulator holds to its
// grants (grants.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamoDBBatchResponse } from 'aws-lambda';
import type { RuntimeConfig } from '../../lambdas/contracts/api.js';
import { expectedUpscaleSeconds, expectedVideoSeconds } from '../../lambdas/contracts/expected-wait.js';
import { ID_TOKEN_ENV } from '../../lambdas/core/jwt.js';
import { USER_POOL_ENV } from '../../lambdas/core/config.js';
import { bucketEnvName, tableEnvName, type BucketName, type TableName } from '../../lambdas/data/tables.js';
import { MAP_CONCURRENCY_ENV, MAP_CONCURRENCY_LOCAL, RECONCILER_FUNCTION, RECONCILER_SCHEDULE_MINUTES, WORKFLOW_ENDED_FUNCTION } from '../../lambdas/workflows.js';
import { WEBHOOKS_ALLOW_LOCAL_ENV } from '../../lambdas/domain/webhooks/rules.js';
import { SUPPORT_MAIL_ENV } from '../../lambdas/domain/support/mail.js';
import { URL_SIGNER_ENV } from '../../lambdas/storage/signing-session.js';
import type { ReconcilerInput } from '../../lambdas/contracts/operations.js';
import { CALLBACK_URL_ENV } from '../../lambdas/realtime/fan-out.js';
import { TEST_FETCH_TARGETS_ENV } from '../../lambdas/net/safe-fetch.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { REALTIME_FUNCTIONS } from '../../lambdas/realtime-functions.js';
import { startCognitoLocal, type MailboxEntry } from './cognito-local.js';
import { ensureTables, startDynamoDbLocal } from './dynamodb-local.js';
import { API_PREFIX, startGateway } from './gateway.js';
import { stageMediaBinaries } from '../media-binaries.js';
import { settingsEnvironment } from '../function-settings.js';
import { ensureBundles } from './bundles.js';
import { deployedFunctions, type DeployedFunction } from './deployed-functions.js';
import { functionEnvironment, TwinAccess } from './grants.js';
import { startFunctionRunner, type FunctionRunner, type FunctionRunnerOptions, type Invoke } from './lambda-runtime.js';
import { assertPortFree, freePort } from './processes.js';
import { startLocalWebSocketApi } from './realtime.js';
import { LOCAL_CREDENTIALS, startS3Local } from './s3-local.js';
import { startStreamPoller } from './stream-poller.js';
import { startStepFunctionsLocal } from './stepfunctions.js';
import { startLocalSts } from './sts.js';
import { startFakeShopify } from './fake-shopify.js';
import { secretValueEnvName } from '../../lambdas/core/secrets.js';
import { SHOPIFY_APP_URL_ENV, SHOPIFY_STAND_IN_ENV } from '../../lambdas/domain/shopify/settings.js';
import { shopifyCallbackRoute, shopifyWebhookRoute } from '../../lambdas/contracts/shopify.js';
import { sweepAbandonedUploads, UPLOAD_SWEEP_INTERVAL_MS } from './upload-sweep.js';

export interface TwinPorts {
  gateway: number;
  dynamodb: number;
  s3: number;
  cognito: number;
  stepfunctions: number;
  /** The stand-in for Shopify (lib/local/fake-shopify.ts). */
  shopify: number;
}

export interface TwinOptions {
  /** Everything the twin stores lives here. */
  dataDir: string;
  /** Fixed ports (npm start); omitted ones are picked free (tests). */
  ports?: Partial<TwinPorts>;
  /** Serve this built web app; or a middleware (Vite dev); or neither (API only). */
  webRoot?: string;
  webMiddleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  log?: (source: string, line: string) => void;
  onCode?: (entry: MailboxEntry) => void;
  /**
   * Real Stripe test mode instead of the labelled local test payment. Default: from STRIPE_SECRET_KEY (a test-mode
   * key) and STRIPE_WEBHOOK_SECRET (e.g. printed by `stripe listen`) when both are set; STRIPE_API_BASE points the
   * handlers at a stand-in for Stripe's API (tests only).
   */
  stripe?: TwinStripe | false;
  /**
   * Loopback address:port pairs the server-side fetch guard may open (a test's sample web shop). Only test setups
   * pass it; `npm start` and the cloud never do.
   */
  testFetchTargets?: string[];
  /** How often the reconciler runs (default every RECONCILER_SCHEDULE_MINUTES, as the cloud's schedule). */
  reconcileIntervalMs?: number;
  /** How long the gateway reuses the API-key authorizer's answer per key (default: the cloud's TTL; 0: never). */
  apiKeyCacheSeconds?: number;
  /** The gateway's stage throttle: default the cloud stage's (lambdas/contracts/aws-limits.ts); false: none. */
  throttle?: false;
  /** Lines saying which function bundles are built (a first start builds them all; later starts reuse them). */
  progress?: (line: string) => void;
  /**
   * Shopify: by default the loopback stand-in (lib/local/fake-shopify.ts) with its demo shop, so publishing works with
   * no Shopify account; a real app's credentials (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, a development app whose
   * redirect URL is this twin's /api/shops/callback) talk to Shopify itself.
   */
  shopify?: { apiKey: string; apiSecret: string };
}

export interface TwinStripe {
  secretKey: string;
  webhookSecret: string;
  apiBase?: string;
}

/** The twin's Stripe settings from the environment, when both secrets are set. Live keys are refused. */
/** Where the twin's support mail is addressed (it lands in .data/support/mailbox.jsonl). */
export const LOCAL_SUPPORT_ADDRESS = 'support@modelloop.local';

/** config.json's `expectedUpscaleSeconds` for the upscale adapter the twin runs (none for an unmeasured one). */
function withExpectedUpscaleSeconds(upscaleAdapter: string): Pick<RuntimeConfig, 'expectedUpscaleSeconds'> {
  const seconds = expectedUpscaleSeconds(upscaleAdapter);
  return seconds === undefined ? {} : { expectedUpscaleSeconds: { ...seconds } };
}

/** config.json's `expectedVideoSeconds` for the video adapter the twin runs (none for an unmeasured one). */
function withExpectedVideoSeconds(videoAdapter: string): Pick<RuntimeConfig, 'expectedVideoSeconds'> {
  const seconds = expectedVideoSeconds(videoAdapter);
  return seconds === undefined ? {} : { expectedVideoSeconds: seconds };
}

export function stripeFromEnv(env: NodeJS.ProcessEnv = process.env): TwinStripe | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey || !webhookSecret) return undefined;
  return { secretKey, webhookSecret, ...(env.STRIPE_API_BASE ? { apiBase: env.STRIPE_API_BASE } : {}) };
}

/** What tests and benches need to know of a running twin: addresses, ids and the handlers' environment. */
export interface TwinInfo {
  webUrl: string;
  apiUrl: string;
  websocketUrl: string;
  cognitoEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  region: string;
  mailboxFile: string;
  /** The environment the handlers run with (table and bucket names, endpoints). */
  env: Record<string, string>;
  /** The Shopify stand-in (its /_fake/ controls) and its demo shop, when the twin runs it. */
  shopify?: { standIn: string; demoShop: string };
}

export interface Twin {
  /** The same facts as one serializable object. */
  info: TwinInfo;
  webUrl: string;
  apiUrl: string;
  /** The WebSocket API (ws://…/ws?token=<ID token>). */
  websocketUrl: string;
  config: RuntimeConfig;
  mailboxFile: string;
  dataDir: string;
  /** What the handlers were configured with (for tests and benches that call the domain directly). */
  env: Record<string, string>;
  /** Runs one of the deployed functions by its name, as the gateway and the workflows do (tests, benches). */
  invoke: Invoke;
  /** The workers alive now, by function. */
  workers(): Record<string, number>;
  stop(): Promise<void>;
}

export const PORT_ENV: Record<keyof TwinPorts, string> = {
  gateway: 'MODELLOOP_PORT',
  dynamodb: 'MODELLOOP_DYNAMODB_PORT',
  s3: 'MODELLOOP_S3_PORT',
  cognito: 'MODELLOOP_COGNITO_PORT',
  stepfunctions: 'MODELLOOP_STEPFUNCTIONS_PORT',
  shopify: 'MODELLOOP_SHOPIFY_PORT',
};

/** The local Shopify app's credentials (the stand-in's), fixed like the local pepper: nothing here is a secret. */
const LOCAL_SHOPIFY_APP = { apiKey: 'modelloop-local-app', apiSecret: 'modelloop-local-shopify-app-secret' } as const;

/** A real Shopify app's credentials from the environment, when both are set. */
export function shopifyFromEnv(env: NodeJS.ProcessEnv = process.env): TwinOptions['shopify'] {
  const apiKey = env.SHOPIFY_API_KEY?.trim();
  const apiSecret = env.SHOPIFY_API_SECRET?.trim();
  return apiKey && apiSecret ? { apiKey, apiSecret } : undefined;
}

const NAME_PREFIX = 'modelloop';
const TWIN_REGION = 'us-east-1';
/** The WebSocket's path on the gateway's origin; like a stage URL, also the base of its @connections API. */
const WEBSOCKET_PATH = '/ws';
/** The twin's STS on the gateway's origin, and the URL-signer role it hands sessions of. */
const STS_PATH = '/sts/';
const LOCAL_URL_SIGNER_ROLE = 'arn:aws:iam::000000000000:role/modelloop-local-url-signer';

export async function startTwin(options: TwinOptions): Promise<Twin> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = options.log ?? (() => undefined);
  const ports = await resolvePorts(options.ports ?? {});
  const stripe = options.stripe === false ? undefined : (options.stripe ?? stripeFromEnv());
  if (stripe && /^(sk|rk)_live_/.test(stripe.secretKey)) {
    throw new Error('STRIPE_SECRET_KEY is a live key: the local twin takes Stripe test-mode keys (sk_test_…) only');
  }
  const webOrigins = [`http://localhost:${ports.gateway}`, `http://127.0.0.1:${ports.gateway}`];
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
  };

  try {
    const functions = deployedFunctions();
    const access = new TwinAccess(LOCAL_CREDENTIALS, functions);
    // The bundles are found (or built) while the emulators start.
    const bundlesReady = ensureBundles(functions, { progress: options.progress });
    bundlesReady.catch(() => undefined);
    const [dynamodb, s3, cognito] = await Promise.all([
      startDynamoDbLocal({ port: ports.dynamodb, dataDir: join(dataDir, 'dynamodb'), access, onLine: (line) => log('dynamodb', line) }),
      startS3Local({ port: ports.s3, dataDir: join(dataDir, 's3'), prefix: NAME_PREFIX, webOrigins, region: TWIN_REGION, access }),
      startCognitoLocal({
        port: ports.cognito,
        dataDir: join(dataDir, 'cognito'),
        access,
        onLine: (line) => log('cognito', line),
        onCode: options.onCode ?? (() => undefined),
      }),
    ]);
    stops.push(() => dynamodb.child.stop(), () => s3.stop(), () => cognito.child.stop());

    const tables = await ensureTables(dynamodb.endpoint, NAME_PREFIX);
    access.resources.tables = tables;
    // Each function's workers: started on demand with the environment the twin has when they start (its endpoints,
    // names and the knobs a developer or a test set), filtered to the function's grants.
    const runner = startTwinFunctions({ functions, bundles: await bundlesReady, environment: () => process.env, log });
    // Stopped after everything that invokes functions (the workflows' last notices, $disconnect).
    stops.push(() => runner.stop());
    const invoke = runner.invoke;
    const stepFunctions = await startStepFunctionsLocal({
      port: ports.stepfunctions,
      invoke,
      access,
      log: (line) => log('stepfunctions', line),
      // The EventBridge rule of the cloud: ended executions go to the same function.
      onExecutionEnded: async (event) => void (await invoke(WORKFLOW_ENDED_FUNCTION.handler, event)),
    });
    stops.push(() => stepFunctions.stop());
    const webUrl = `http://localhost:${ports.gateway}`;
    const realShopify = options.shopify ?? shopifyFromEnv();
    const fakeShopify = realShopify
      ? undefined
      : await startFakeShopify({
          port: ports.shopify,
          dataDir: join(dataDir, 'shopify'),
          app: {
            ...LOCAL_SHOPIFY_APP,
            redirectUrls: [webUrl, `http://127.0.0.1:${ports.gateway}`].map((origin) => `${origin}${API_PREFIX}${shopifyCallbackRoute.path}`),
            webhookUrl: `http://127.0.0.1:${ports.gateway}${API_PREFIX}${shopifyWebhookRoute.path}`,
          },
          log: (line) => log('shopify', line),
        });
    if (fakeShopify) stops.push(() => fakeShopify.stop());
    const env: Record<string, string> = {
      AWS_REGION: TWIN_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_SESSION_TOKEN: LOCAL_CREDENTIALS.sessionToken,
      AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SFN: stepFunctions.endpoint,
      // URLs are signed with sessions of the stage's URL-signer role (lambdas/storage/signing-session.ts): the twin's STS.
      AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${ports.gateway}${STS_PATH}`,
      [URL_SIGNER_ENV.role]: LOCAL_URL_SIGNER_ROLE,
      S3_FORCE_PATH_STYLE: 'true',
      STAGE: 'local',
      // The API keys' hashes are peppered; in the cloud the pepper is a Secrets Manager secret.
      API_KEY_PEPPER: 'modelloop-local-development-pepper',
      // Powertools' development mode: indented log lines for people, and no metric lines (EMF means nothing here).
      POWERTOOLS_DEV: process.env.POWERTOOLS_DEV ?? 'true',
      PAYMENTS: stripe ? 'stripe' : 'test',
      WEB_URL: `http://localhost:${ports.gateway}`,
      ...(stripe
        ? {
            STRIPE_SECRET_KEY: stripe.secretKey,
            STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
            ...(stripe.apiBase ? { STRIPE_API_BASE: stripe.apiBase } : {}),
          }
        : {}),
      ...(options.testFetchTargets?.length ? { [TEST_FETCH_TARGETS_ENV]: options.testFetchTargets.join(',') } : {}),
      [MAP_CONCURRENCY_ENV.batch]: String(MAP_CONCURRENCY_LOCAL.batch),
      [MAP_CONCURRENCY_ENV.video]: String(MAP_CONCURRENCY_LOCAL.video),
      // Shopify: the app's credentials and the tokens' sealing key by value (the functions that declare them see them),
      // and the stand-in's origin unless a real app is configured.
      [SHOPIFY_APP_URL_ENV]: webUrl,
      [secretValueEnvName('shopifyApp')]: JSON.stringify(realShopify ?? LOCAL_SHOPIFY_APP),
      [secretValueEnvName('shopTokenKey')]: 'modelloop-local-shop-token-key',
      ...(fakeShopify ? { [SHOPIFY_STAND_IN_ENV]: fakeShopify.origin } : {}),
      // The delete-account workflow deletes users in cognito-local, as it does in the cloud's user pool.
      [USER_POOL_ENV]: cognito.userPoolId,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
      // Developers receive webhooks on http://localhost; the cloud allows public https addresses only.
      [WEBHOOKS_ALLOW_LOCAL_ENV]: '1',
      // The twin has no mail service: support tickets are mailed into a file (the cloud sends them through SES).
      [SUPPORT_MAIL_ENV.to]: LOCAL_SUPPORT_ADDRESS,
      [SUPPORT_MAIL_ENV.mailbox]: join(dataDir, 'support', 'mailbox.jsonl'),
      [ID_TOKEN_ENV.issuer]: cognito.issuer,
      [ID_TOKEN_ENV.audience]: cognito.userPoolClientId,
      [ID_TOKEN_ENV.jwksUri]: cognito.jwksUri,
      [CALLBACK_URL_ENV]: `http://127.0.0.1:${ports.gateway}${WEBSOCKET_PATH}`,
      ...stepFunctions.env,
      ...Object.fromEntries((Object.entries(tables) as [TableName, string][]).map(([table, name]) => [tableEnvName(table), name])),
      ...Object.fromEntries((Object.entries(s3.buckets) as [BucketName, string][]).map(([bucket, name]) => [bucketEnvName(bucket), name])),
    };
    // The twin's own work (seeding the prices, the upload sweep) and the tests that share its process read the same
    // names; each function's worker gets its share of them (functionEnvironment).
    Object.assign(process.env, env);
    const { seedPricingTiers } = await import('../../lambdas/data/pricing-repo.js');
    const { readProviderChoice } = await import('../../lambdas/providers/config.js');
    await seedPricingTiers(readProviderChoice(process.env, 'PROVIDER_IMAGE'));

    // The executions of a previous run lived in its memory: work it left in flight has none now and would never end.
    // It is failed and refunded once (an account deletion is resumed), before anything is served; then the reconciler
    // runs on the cloud's schedule.
    const runReconciler = (input: ReconcilerInput) => invoke(RECONCILER_FUNCTION.handler, input) as Promise<{ settled: unknown[] }>;
    const recovered = await runReconciler({ criterion: 'no-execution', auditWindowMinutes: 24 * 60 });
    if (recovered.settled.length) log('reconciler', `settled ${recovered.settled.length} record(s) left in flight by the previous run`);
    const reconcileTimer = setInterval(() => {
      runReconciler({ criterion: 'past-timeout' }).catch((error: unknown) => log('reconciler', `run failed: ${String(error)}`));
    }, options.reconcileIntervalMs ?? RECONCILER_SCHEDULE_MINUTES * 60_000);
    reconcileTimer.unref();
    stops.push(async () => clearInterval(reconcileTimer));

    // The buckets' abandoned-uploads lifecycle rule, which s3rver lacks: at start, then hourly.
    const sweep = () =>
      sweepAbandonedUploads({ endpoint: s3.endpoint, region: env.AWS_REGION!, credentials: LOCAL_CREDENTIALS, buckets: Object.values(s3.buckets) })
        .then((removed) => removed.length && log('uploads', `removed ${removed.length} upload(s) never registered or used`))
        .catch((error: unknown) => log('uploads', `sweep failed: ${String(error)}`));
    await sweep();
    const sweepTimer = setInterval(() => void sweep(), UPLOAD_SWEEP_INTERVAL_MS);
    sweepTimer.unref();
    stops.push(async () => clearInterval(sweepTimer));

    const config: RuntimeConfig = {
      apiUrl: `${webUrl}${API_PREFIX}`,
      websocketUrl: `ws://localhost:${ports.gateway}${WEBSOCKET_PATH}`,
      region: 'us-east-1',
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.userPoolClientId,
      cognitoEndpoint: cognito.endpoint,
      host: 'local',
      testPayments: !stripe,
      payments: stripe ? 'stripe' : 'test',
      shopify: true,
      ...withExpectedVideoSeconds(process.env.PROVIDER_VIDEO?.trim() || 'local'),
      ...withExpectedUpscaleSeconds(process.env.PROVIDER_UPSCALE?.trim() || 'local'),
    };
    const webSocketApi = await startLocalWebSocketApi({
      path: WEBSOCKET_PATH,
      region: env.AWS_REGION!,
      access,
      invoke,
      log: (line) => log('realtime', line),
    });
    const gateway = await startGateway({
      port: ports.gateway,
      issuer: cognito.issuer,
      jwksUri: cognito.jwksUri,
      audience: cognito.userPoolClientId,
      allowedOrigins: webOrigins,
      runtimeConfig: () => config,
      webRoot: options.webRoot,
      webMiddleware: options.webMiddleware,
      invoke,
      mounts: [webSocketApi.management, startLocalSts({ path: STS_PATH, credentialsOf: access.credentialsOf }).mount],
      apiKeyCacheSeconds: options.apiKeyCacheSeconds,
      throttle: options.throttle,
      log: (line) => log('gateway', line),
    });
    stops.push(() => gateway.stop());
    webSocketApi.attach(gateway.server);
    stops.push(() => webSocketApi.stop());

    // DynamoDB streams → their one consumer (live updates and webhook events), as the event source mappings do in the cloud.
    const streamPoller = await startStreamPoller({
      endpoint: dynamodb.endpoint,
      region: env.AWS_REGION!,
      credentials: LOCAL_CREDENTIALS,
      tables: STREAMED_TABLES.map((table) => tables[table]),
      handler: (event) => invoke(REALTIME_FUNCTIONS.fanOut.handler, event) as Promise<DynamoDBBatchResponse | void>,
      log: (line) => log('streams', line),
    });
    stops.push(() => streamPoller.stop());

    const info: TwinInfo = {
      webUrl,
      apiUrl: config.apiUrl,
      websocketUrl: config.websocketUrl!,
      cognitoEndpoint: cognito.endpoint,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.userPoolClientId,
      region: config.region,
      mailboxFile: cognito.mailboxFile,
      env,
      ...(fakeShopify ? { shopify: { standIn: fakeShopify.origin, demoShop: fakeShopify.demoShop } } : {}),
    };
    return { info, ...info, config, dataDir, invoke, workers: runner.workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The function runner of a twin: each function's worker gets the twin's environment (read when the worker starts)
 * filtered to its grants with its own credentials (functionEnvironment), its declaration's settings, and the media
 * layer's ffmpeg when it declares `media`. `npm run invoke` runs a function of a running twin the same way.
 */
export function startTwinFunctions(options: {
  functions: readonly DeployedFunction[];
  bundles: ReadonlyMap<string, string>;
  environment: () => NodeJS.ProcessEnv;
  log: (source: string, line: string) => void;
  output?: FunctionRunnerOptions['output'];
}): FunctionRunner {
  const media = mediaLayerEnvironment((line) => options.log('media', line));
  return startFunctionRunner({
    functions: options.functions,
    bundles: options.bundles,
    output: options.output,
    environment: (fn) => ({
      ...functionEnvironment(fn, options.environment()),
      ...settingsEnvironment(fn.spec),
      ...(fn.spec.media ? media : {}),
      // Lambda runs the bundles on Node.js 22 (their target); the twin's own Node may be older, which the SDK would
      // otherwise warn about in every worker (the twin's process still says it once).
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    }),
  });
}

/** The media layer's ffmpeg and ffprobe for the functions that declare `media`, as the layer gives them in the cloud. */
function mediaLayerEnvironment(log: (line: string) => void): Record<string, string> {
  try {
    const { paths } = stageMediaBinaries();
    return { FFMPEG_PATH: paths.ffmpeg, FFPROBE_PATH: paths.ffprobe };
  } catch (error) {
    log(`${error instanceof Error ? error.message : String(error)} The video functions use the ffmpeg on PATH.`);
    return {};
  }
}

/** Where a running `npm start` leaves its TwinInfo, so that other tools (`npm run invoke`, the demo seed) can find it. */
export const TWIN_INFO_FILE = 'twin.json';

/** Publishes a running twin's info in its data directory; the returned function removes it again. */
export function publishTwinInfo(dataDir: string, info: TwinInfo): () => void {
  const file = join(dataDir, TWIN_INFO_FILE);
  writeFileSync(file, JSON.stringify({ pid: process.pid, ...info }, null, 2));
  return () => rmSync(file, { force: true });
}

/** The twin that `npm start` runs on this data directory, when its process is alive and its gateway answers. */
export async function findRunningTwin(dataDir: string): Promise<TwinInfo | undefined> {
  const file = join(resolve(dataDir), TWIN_INFO_FILE);
  if (!existsSync(file)) return undefined;
  const { pid, ...info } = JSON.parse(readFileSync(file, 'utf8')) as TwinInfo & { pid: number };
  try {
    process.kill(pid, 0);
    const response = await fetch(`${info.webUrl}/config.json`, { signal: AbortSignal.timeout(2000) });
    return response.ok ? info : undefined;
  } catch {
    return undefined;
  }
}

async function resolvePorts(fixed: Partial<TwinPorts>): Promise<TwinPorts> {
  const ports = {} as TwinPorts;
  for (const name of Object.keys(PORT_ENV) as (keyof TwinPorts)[]) {
    const port = fixed[name];
    if (port) {
      await assertPortFree(port, name, PORT_ENV[name]);
      ports[name] = port;
    } else {
      ports[name] = await freePort();
    }
  }
  return ports;
}
