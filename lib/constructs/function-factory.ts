// Every Lambda of the stack comes from here: one runtime, architecture, bundling and log setup, and one call that
// grants a function exactly the tables, buckets, workflows and AI providers it declares and passes it their names and
// settings. Functions that run ffmpeg get the media layer (and, for its binaries, the x86_64 architecture).
import { USER_POOL_ACTIONS, type UserPoolAccess } from '../../lambdas/routes.js';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import {
  BUCKETS,
  TABLES,
  bucketEnvName,
  tableEnvName,
  type BucketName,
  type TableDefinition,
  type TableName,
} from '../../lambdas/data/tables.js';
import type { Access, BucketAccess } from '../../lambdas/routes.js';
import { secretIdEnvName, type SecretName } from '../../lambdas/core/secrets.js';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { workflowEnvName } from '../../lambdas/workflows.js';
import type { UrlSigner } from './url-signer.js';
import { USER_POOL_ENV } from '../../lambdas/core/config.js';
import { assetCommands, ESM_REQUIRE_BANNER, ESRGAN_PACKAGES, importsSharp, nativeAssetSteps, ONNX_RUNTIME_PACKAGES, type AssetStep } from '../native-modules.js';
import {
  BUCKET_LIST_ACTION,
  BUCKET_PUT_ACTIONS,
  BUCKET_READ_ACTIONS,
  BUCKET_WRITE_ACTIONS,
  functionMemoryMb,
  functionTimeoutSeconds,
  settingsEnvironment,
  TABLE_READ_ACTIONS,
  TABLE_WRITE_ACTIONS,
  WORKFLOW_EXECUTION_ACTIONS,
} from '../function-settings.js';
import { MediaLayer } from './media-layer.js';
import { nagResourceName } from './nag-names.js';
import type { ProviderAccess, ProviderCapability } from './provider-access.js';
import { workflowStateMachineName } from './workflow-names.js';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HANDLERS_DIR = `${PROJECT_ROOT}lambdas/handlers/`;

/**
 * Modules the bundles take from lambdas/ instead of from the SDK (paths from the project root, where esbuild runs).
 * Lambda gives a function its credentials in the environment, so the SDK's default credential chain, with the STS,
 * SSO and sign-in clients it brings (about 130 KB of each bundle), becomes that one lookup (lambdas/core/credentials.ts).
 */
export const BUNDLE_ALIASES = { '@aws-sdk/credential-provider-node': './lambdas/core/credentials.ts' } as const;

/** What a function touches: the same shape as a route's `tables` / `buckets` / `workflows`. */
export interface ResourceAccess {
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, BucketAccess>>;
  /** Workflows it starts, describes and stops (names in lambdas/workflows.ts). */
  workflows?: readonly string[];
  /** Workflows whose executions it only looks up (DescribeExecution), e.g. the reconciler's check for a lost execution. */
  observes?: readonly string[];
  /** AI capabilities it calls (lambdas/providers/registry.ts): the selected adapters' settings and access. */
  providers?: readonly ProviderCapability[];
  /**
   * The user pool: 'read-users' finds a user by sub (ListUsers), for functions that make a profile from an API key's
   * call; 'delete-users' also deletes one (AdminDeleteUser), for the delete-account workflow. That pool only.
   */
  userPool?: UserPoolAccess;
  /** Secrets it reads (lambdas/core/secrets.ts): the stage's, when it has them; a secret the stage lacks is left out. */
  secrets?: readonly SecretName[];
}

export interface FunctionSpec extends ResourceAccess {
  /** Module lambdas/handlers/<handler>.ts, exporting `handler`. */
  handler: string;
  timeoutSeconds?: number;
  memoryMb?: number;
  environment?: Record<string, string>;
  /** Runs ffmpeg/ffprobe (lambdas/media): gets the media layer, its environment, x86_64. */
  media?: boolean;
  /** Modules (paths from the project root) bundled and run ahead of the handler: e.g. USER_ROUTE_PRELUDE. */
  prelude?: readonly string[];
  /** Runs the preview engine's ESRGAN upscaler: carries its weights and onnxruntime-node's binding (lib/native-modules.ts). */
  esrgan?: boolean;
  /** Cuts out with the U²-Net-p network: carries its weights and onnxruntime-node's binding (lib/native-modules.ts). */
  segmentation?: boolean;
  /** Counts faces in portraits (face-api): carries its detector, WASM binaries and weights (lib/native-modules.ts). */
  faces?: boolean;
}

export interface FunctionFactoryProps {
  tables: Record<TableName, Table>;
  buckets: Record<BucketName, Bucket>;
  /** Given to every function (e.g. the provider selection). */
  environment?: Record<string, string>;
  /** Settings and access of the selected AI adapters, for functions that declare `providers`. */
  providers?: ProviderAccess;
  /** ffmpeg and ffprobe, for functions that declare `media`. */
  mediaLayer?: MediaLayer;
  /** The Cognito user pool, for functions that declare `userPool`. */
  userPool?: IUserPool;
  /** The most memory (MB) a function may ask for (context lambdaMemoryMax; default a new account's 3,008). */
  memoryMaxMb?: number;
  /** The role whose sessions sign URLs: every function with bucket access signs with it (lambdas/storage/signing-session.ts). */
  urlSigner?: UrlSigner;
  /** The stage's secrets, by name (lambdas/core/secrets.ts), for functions that declare `secrets`. */
  secrets?: Partial<Record<SecretName, ISecret>>;
}


/** Lambda quotas: a new account's functions get at most this much memory (lib/config.ts, lambdaMemoryMax). */
const NEW_ACCOUNT_MEMORY_MB = 3008;

/** Every object action a function may be granted: what the URL-signer role may do (lib/constructs/url-signer.ts). */
export const BUCKET_OBJECT_ACTIONS = BUCKET_WRITE_ACTIONS;

/** CDK's hooks around esbuild: after it, the function's asset steps (lib/native-modules.ts) as shell commands. */
function assetHooks(steps: readonly AssetStep[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_input, output) => assetCommands(steps, output),
  };
}

/**
 * What a function's code is made of: the NodejsFunction properties its bundle is built from, and the asset steps
 * carried out after esbuild (sharp's packages, and the ESRGAN, cutout or face folders it declares). CDK builds the
 * function from this (FunctionFactory.create), and the twin builds its bundle from the very same (lib/local/bundles.ts).
 */
export interface FunctionCode {
  props: {
    entry: string;
    handler: 'handler';
    projectRoot: string;
    depsLockFilePath: string;
    runtime: Runtime;
    architecture: Architecture;
    bundling: BundlingOptions;
  };
  assets: AssetStep[];
}

/** The handler module a function runs. */
export const handlerEntry = (handler: string) => `${HANDLERS_DIR}${handler}.ts`;

/** The parts of a declaration its code depends on. */
export type CodeSpec = Pick<FunctionSpec, 'handler' | 'media' | 'prelude' | 'esrgan' | 'segmentation' | 'faces'>;

/**
 * The code of the function for lambdas/handlers/<spec.handler>.ts. `sharp` is whether its handler imports sharp
 * (importsSharp, asked here unless the caller already did).
 */
export function functionCode(spec: CodeSpec, sharp = importsSharp(handlerEntry(spec.handler))): FunctionCode {
  const entry = handlerEntry(spec.handler);
  // Both native payloads (the media layer, sharp's packages) are the linux-x64 builds; every other function runs on
  // arm64. sharp ships only with functions whose bundle imports it (statically or at first use).
  if (spec.esrgan && !sharp) throw new Error(`Function ${spec.handler} runs ESRGAN, but its handler never decodes a picture with sharp`);
  const native = Boolean(spec.media) || sharp;
  return {
    props: {
      entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      runtime: Runtime.NODEJS_22_X,
      architecture: native ? Architecture.X86_64 : Architecture.ARM_64,
      // ESM, minified, SDK bundled: the fastest cold start measured . The banner gives CommonJS
      // dependencies bundled into the ESM output the `require` they expect.
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: false,
        externalModules: sharp ? ['sharp', ...ESRGAN_PACKAGES, ...ONNX_RUNTIME_PACKAGES] : [],
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        esbuildArgs: { '--alias': Object.entries(BUNDLE_ALIASES).map(([module, replacement]) => `${module}=${replacement}`) },
        banner: ESM_REQUIRE_BANNER,
        inject: spec.prelude?.map((module) => `${PROJECT_ROOT}${module}`),
      },
    },
    assets: sharp ? nativeAssetSteps(spec) : [],
  };
}

export class FunctionFactory {
  private readonly stateMachines = new Map<string, StateMachine>();
  /** Functions created before the state machine of a workflow they use: granted when it arrives. */
  private readonly waiting = new Map<string, { fn: NodejsFunction; observeOnly: boolean }[]>();
  /** Every function made here, with the handler module it runs and the secrets it reads (checks, and later wiring). */
  readonly created: { handler: string; spec: FunctionSpec; fn: NodejsFunction; secrets: readonly SecretName[] }[] = [];

  constructor(private readonly props: FunctionFactoryProps) {}

  /**
   * The deployed workflows. A function gets the workflows it declares whichever comes first, the function or the
   * state machine; a workflow that never arrives fails the synth, naming the function.
   */
  useStateMachines(stateMachines: Record<string, StateMachine>): void {
    for (const [name, stateMachine] of Object.entries(stateMachines)) {
      this.stateMachines.set(name, stateMachine);
      for (const { fn, observeOnly } of this.waiting.get(name) ?? []) this.grantWorkflow(fn, name, stateMachine, observeOnly);
      this.waiting.delete(name);
    }
  }

  private readonly logGroups = new Map<Construct, LogGroup>();

  /**
   * One log group per feature construct (the HTTP API's routes, the workflows' tasks, realtime, operations): each
   * function writes its own streams (named by the function), and sixty functions don't cost sixty log groups of the
   * 500 resources CloudFormation allows a stack.
   */
  private logGroupOf(scope: Construct): LogGroup {
    let group = this.logGroups.get(scope);
    if (!group) {
      group = new LogGroup(scope, 'FunctionLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
      this.logGroups.set(scope, group);
    }
    return group;
  }

  /** A function for lambdas/handlers/<spec.handler>.ts with the access it declares granted and named in its env. */
  create(scope: Construct, id: string, spec: FunctionSpec): NodejsFunction {
    const logGroup = this.logGroupOf(scope);
    // An own role instead of AWSLambdaBasicExecutionRole: it may write to its feature's log group only.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const media = spec.media ? this.props.mediaLayer : undefined;
    if (spec.media && !media) throw new Error(`Function ${id} runs ffmpeg, but the function factory has no media layer`);
    const code = functionCode(spec);

    const fn = new NodejsFunction(scope, id, {
      ...code.props,
      layers: media ? [media.layer] : undefined,
      timeout: Duration.seconds(functionTimeoutSeconds(spec)),
      memorySize: this.memoryOf(id, spec),
      role,
      logGroup,
      environment: {
        ...this.props.environment,
        ...settingsEnvironment(spec),
        ...(media ? MediaLayer.environment : {}),
        ...spec.environment,
      },
      // Lambda records every invocation in X-Ray; the provider tasks add their own subsegments (lambdas/core/tracing.ts).
      tracing: Tracing.ACTIVE,
      bundling: { ...code.props.bundling, commandHooks: code.assets.length ? assetHooks(code.assets) : undefined },
    });
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 is the pinned runtime the handlers are bundled for (esbuild target node22) and tested against; it is supported by Lambda until 2027. Moving to a newer runtime is a deliberate upgrade with its own tests.',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
    this.grant(fn, spec);
    this.created.push({ handler: spec.handler, spec, fn, secrets: spec.secrets ?? [] });
    return fn;
  }

  /** Grants exactly the declared access and sets the env variables that carry the physical names and settings. */
  grant(fn: NodejsFunction, access: ResourceAccess): void {
    const role = fn.role;
    if (!role) throw new Error(`Function ${fn.node.path} has no role to grant access to`);

    for (const [name, level] of Object.entries(access.tables ?? {}) as [TableName, Access][]) {
      const table = this.props.tables[name];
      const definition: TableDefinition = TABLES[name];
      const indexNames = [...(definition.localIndexes ?? []), ...(definition.globalIndexes ?? [])].map((index) => index.name);
      role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: level === 'write' ? TABLE_WRITE_ACTIONS : TABLE_READ_ACTIONS,
          resources: [table.tableArn, ...indexNames.map((index) => `${table.tableArn}/index/${index}`)],
        }),
      );
      fn.addEnvironment(tableEnvName(name), table.tableName);
    }

    const bucketAccess: PolicyStatement[] = [];
    for (const [name, level] of Object.entries(access.buckets ?? {}) as [BucketName, BucketAccess][]) {
      const bucket = this.props.buckets[name];
      if (level !== 'put') bucketAccess.push(new PolicyStatement({ actions: [BUCKET_LIST_ACTION], resources: [bucket.bucketArn] }));
      bucketAccess.push(
        new PolicyStatement({
          actions: level === 'write' ? BUCKET_WRITE_ACTIONS : level === 'put' ? BUCKET_PUT_ACTIONS : BUCKET_READ_ACTIONS,
          resources: [bucket.arnForObjects('*')],
        }),
      );
      const bucketLogicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnElement);
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
        reason: `Object keys in ${BUCKETS[name].logicalName} are chosen per user and request at run time (folder per user id), so access is to the bucket's objects, never to other buckets.`,
      });
      fn.addEnvironment(bucketEnvName(name), bucket.bucketName);
    }
    for (const statement of bucketAccess) role.addToPrincipalPolicy(statement);
    // Its URLs are signed in sessions of the URL signer narrowed to exactly this access.
    if (bucketAccess.length && this.props.urlSigner) this.props.urlSigner.allow(fn, bucketAccess);

    const observed = (access.observes ?? []).filter((name) => !access.workflows?.includes(name));
    const workflows = [...(access.workflows ?? []), ...observed];
    for (const name of workflows) {
      const observeOnly = observed.includes(name);
      const stateMachine = this.stateMachines.get(name);
      if (stateMachine) this.grantWorkflow(fn, name, stateMachine, observeOnly);
      else this.waiting.set(name, [...(this.waiting.get(name) ?? []), { fn, observeOnly }]);
    }
    if (workflows.length) {
      fn.node.addValidation({
        validate: () =>
          workflows.filter((name) => !this.stateMachines.has(name)).map((name) => `Function ${fn.node.path} uses workflow '${name}', which is not deployed`),
      });
    }

    if (access.userPool) {
      if (!this.props.userPool) throw new Error(`Function ${fn.node.path} uses the user pool, but the function factory has no user pool`);
      role.addToPrincipalPolicy(new PolicyStatement({ actions: USER_POOL_ACTIONS[access.userPool], resources: [this.props.userPool.userPoolArn] }));
      fn.addEnvironment(USER_POOL_ENV, this.props.userPool.userPoolId);
    }

    if (access.providers?.length) {
      if (!this.props.providers) throw new Error(`Function ${fn.node.path} calls AI providers, but the function factory has no provider access`);
      this.props.providers.grant(fn, access.providers);
    }

    // GetSecretValue on exactly the declared secrets, and where to find each (by name: a secret imported by name has no
    // full ARN until it is read).
    for (const name of access.secrets ?? []) {
      const secret = this.props.secrets?.[name];
      if (!secret) continue;
      secret.grantRead(role);
      fn.addEnvironment(secretIdEnvName(name), secret.secretName);
    }
  }

  /**
   * A function's memory, refused above the stage's lambdaMemoryMax: a new AWS account may create functions of at most
   * 3,008 MB (Lambda quotas: "New AWS accounts have reduced concurrency and memory quotas"), and CloudFormation would
   * roll the whole stack back on the one function it can't create.
   */
  private memoryOf(id: string, spec: FunctionSpec): number {
    const mb = functionMemoryMb(spec);
    const max = this.props.memoryMaxMb ?? NEW_ACCOUNT_MEMORY_MB;
    if (mb > max) {
      throw new Error(
        `Function ${id} asks for ${mb} MB, above context lambdaMemoryMax (${max} MB; a new AWS account may create functions of at most ` +
          `${NEW_ACCOUNT_MEMORY_MB} MB): lower its memoryMb, or raise lambdaMemoryMax once the account's Lambda memory quota allows it`,
      );
    }
    return mb;
  }

  /**
   * Start, describe and stop executions of this workflow (or, `observeOnly`, describe them), and its ARN in the
   * function's environment.
   */
  private grantWorkflow(fn: NodejsFunction, name: string, stateMachine: StateMachine, observeOnly = false): void {
    const role = fn.role;
    if (!role) throw new Error(`Function ${fn.node.path} has no role to grant access to`);
    if (!observeOnly) stateMachine.grantStartExecution(fn);
    // Executions are named by generation or job id at run time: the grant is this state machine's executions.
    const executionPrefix = `${workflowStateMachineName(stateMachine, name)}:*`;
    const executions = Stack.of(fn).formatArn({ service: 'states', resource: 'execution', resourceName: executionPrefix, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: [...WORKFLOW_EXECUTION_ACTIONS[observeOnly ? 'observes' : 'uses']], resources: [executions] }),
    );
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceName(fn, executions)}]`,
      reason: `Executions of the ${name} workflow are named by generation or job id at run time; the grant covers that workflow's executions only.`,
    });
    fn.addEnvironment(workflowEnvName(name), stateMachine.stateMachineArn);
  }
}
