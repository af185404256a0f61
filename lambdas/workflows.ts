// The one workflow table. Each workflow is an ASL file under lib/workflows/ (JSONPath, no JSONata) whose Lambda
// task resources are placeholders `${Name}`; CDK substitutes the ARN of a function built from `tasks[Name]`
// (DefinitionBody.fromFile + definitionSubstitutions), the local twin maps the same placeholder to the same handler
// module and runs the same file with aws-local-stepfunctions. Functions that start a workflow find its ARN in
// the environment variable `workflowEnvName(name)`.
import { requireEnv } from './core/config.js';
import type { SecretName } from './core/secrets.js';
import { ACCOUNT_DELETION, type BucketName, type TableName } from './data/tables.js';
import type { Providers } from './providers/registry.js';
import type { Access } from './routes.js';

export interface TaskFunction {
  /** Module lambdas/handlers/<handler>.ts, exporting `handler(input)`. */
  handler: string;
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, Access>>;
  timeoutSeconds?: number;
  memoryMb?: number;
  /** Workflows whose executions it only looks up (DescribeExecution); their ARNs are in its environment too. */
  observes?: readonly string[];
  /** Secrets it reads (lambdas/core/secrets.ts): in the cloud their ARNs and a grant to read exactly those. */
  secrets?: readonly SecretName[];
  /** The AI capabilities it calls through getProviders(): in the cloud it gets the configured adapters' settings and IAM access. */
  providers?: readonly (keyof Providers)[];
  /** It runs ffmpeg/ffprobe (lambdas/media): in the cloud it gets the media layer (x86_64). */
  media?: boolean;
  /** It finds ('read-users') or deletes ('delete-users') users of the Cognito user pool (USER_POOL_ID in its environment). */
  userPool?: 'read-users' | 'delete-users';
  /**
   * It runs the preview engine's ESRGAN upscaler: in the cloud its bundle carries the esrgan-slim weights and
   * onnxruntime-node (lib/native-modules.ts); every other function upscales with Lanczos.
   */
  esrgan?: boolean;
  /**
   * It cuts products out with the U²-Net-p network (packshots, the preview engine on busy backgrounds): in the cloud
   * its bundle carries segmentation/ (the weights and onnxruntime-node's linux-x64 binding, lib/native-modules.ts);
   * every other function cuts out by colour distance.
   */
  segmentation?: boolean;
}

export interface WorkflowDefinition {
  /** File name under lib/workflows/. */
  asl: string;
  /** Placeholder in the ASL → the function that serves it. */
  tasks: Record<string, TaskFunction>;
}

/** Write access to every table whose items an account deletion deletes (ACCOUNT_DELETION). */
const DELETED_TABLE_ACCESS = Object.fromEntries(
  (Object.keys(ACCOUNT_DELETION) as TableName[])
    .filter((table) => ['partition', 'key', 'index'].includes(ACCOUNT_DELETION[table].action))
    .map((table) => [table, 'write']),
) as Partial<Record<TableName, Access>>;

export const WORKFLOWS = {
  /**
   * One image generation, edit or upscale: Process, or Upscale for an upscale (provider → result in S3 → complete), on
   * any failure Fail (failed + refund).
   */
  generation: {
    asl: 'generation.asl.json',
    tasks: {
      Process: {
        handler: 'generation-process',
        // Upscale too, for an execution started without its operation (before Upscale existed).
        providers: ['onModelImage', 'edit', 'upscale'],
        // limits: a finished generation gives back its running place; models: the first picture made with a saved model
        // becomes its card's image.
        tables: { generations: 'write', clothingItems: 'write', limits: 'write', models: 'write' },
        buckets: { clothingImages: 'read', results: 'write' },
        // The largest picture is an 8K upscale (5760×10240): time and memory for decoding, resampling and PNG.
        timeoutSeconds: 300,
        memoryMb: 3008,
        // Packshots and the preview engine's cutouts on busy backgrounds.
        segmentation: true,
      },
      // The same work for an upscale, in the one function that carries the ESRGAN weights. Sized for a new AWS
      // account (at most 3,008 MB, context lambdaMemoryMax): Lambda gives CPU in proportion to memory, about 1.7 vCPU
      // at 3,008 MB, and ESRGAN runs onnxruntime on every core it sees but one (1 of 2 there). The slowest ESRGAN
      // enlargement the line in lambdas/providers/local-engine/upscale.ts lets through, 2K → 4K, took 24–37 s of CPU
      // on 1–2 threads (bench/esrgan.ts): about 15–25 s of wall time at 1.7 vCPU, far inside Lambda's longest
      // timeout (900 s).
      Upscale: {
        handler: 'generation-upscale',
        providers: ['upscale'],
        tables: { generations: 'write', clothingItems: 'write', limits: 'write', models: 'write' },
        buckets: { clothingImages: 'read', results: 'write' },
        timeoutSeconds: 900,
        memoryMb: 3008,
        esrgan: true,
      },
      Fail: {
        handler: 'generation-fail',
        tables: { generations: 'write', profiles: 'write', ledger: 'write', limits: 'write' },
        timeoutSeconds: 60,
      },
    },
  },
  /** A video job (lambdas/domain/video): execution name = job id; see the ASL file for the states. */
  video: {
    asl: 'video.asl.json',
    tasks: {
      // The local engine renders the clip inside `start`, so StartClip may take a while and needs memory; it finds the
      // subject of an on-model picture with the cutout network, to keep it in the frame (video-render.ts).
      // A chained clip starts from the previous clip's last frame, taken with ffmpeg.
      StartClip: { handler: 'video-start-clip', tables: { jobs: 'write' }, buckets: { results: 'write' }, timeoutSeconds: 300, memoryMb: 2048, providers: ['video'], media: true, segmentation: true },
      CheckClip: { handler: 'video-check-clip', buckets: { results: 'read' }, timeoutSeconds: 60, providers: ['video'] },
      // ffmpeg work on files in /tmp: normalize, seam measure (and repair), poster frame.
      FinalizeOutput: { handler: 'video-finalize-output', tables: { jobs: 'read' }, buckets: { results: 'write' }, timeoutSeconds: 600, memoryMb: 3008, media: true },
      CompleteJob: { handler: 'video-complete-job', tables: { jobs: 'write', profiles: 'write', ledger: 'write', generations: 'write', limits: 'write' }, timeoutSeconds: 60 },
      MarkFailed: { handler: 'video-mark-failed', tables: { jobs: 'write', profiles: 'write', ledger: 'write', generations: 'write', limits: 'write' }, timeoutSeconds: 60 },
    },
  },
  /**
   * A batch (lambdas/domain/batch): execution name = batch id. A Map over the photo ids (MaxConcurrencyPath: the
   * route's BATCH_MAX_CONCURRENCY) runs MakePhoto per photo, with FailPhoto caught inside the iteration; Summarize last.
   */
  batch: {
    asl: 'batch.asl.json',
    tasks: {
      // The generation workflow's Process: it makes 'batch' rows through the on-model port.
      MakePhoto: {
        handler: 'generation-process',
        providers: ['onModelImage'],
        tables: { generations: 'write', clothingItems: 'write', limits: 'write', models: 'write' },
        buckets: { clothingImages: 'read', results: 'write' },
        timeoutSeconds: 300,
        memoryMb: 3008,
        // A batch's packshots and the preview engine's cutouts on busy backgrounds, as Process's: without the network
        // a batch packshot falls back to the colour cutout (IoU 0.05–0.12 for jewelry on busy backgrounds).
        segmentation: true,
      },
      FailPhoto: {
        handler: 'batch-fail-photo',
        tables: { generations: 'write', batches: 'read', profiles: 'write', ledger: 'write' },
        timeoutSeconds: 60,
      },
      Summarize: {
        handler: 'batch-summarize',
        tables: { generations: 'write', batches: 'write', profiles: 'write', ledger: 'write', limits: 'write' },
        timeoutSeconds: 120,
      },
    },
  },
  /**
   * The "Download all" zip of a batch (lambdas/domain/batch/archive.ts): execution name = <batch id>-zip-<attempt>.
   * BuildArchive streams the photos (120 4K PNGs at most, a few GB) from the results bucket into one object: memory
   * stays at a stream's buffers; 900 s is many times what copying that takes inside one region.
   */
  batchArchive: {
    asl: 'batch-archive.asl.json',
    tasks: {
      BuildArchive: { handler: 'batch-build-archive', tables: { batches: 'write', generations: 'read' }, buckets: { results: 'write' }, timeoutSeconds: 900, memoryMb: 1024 },
      ArchiveFailed: { handler: 'batch-archive-failed', tables: { batches: 'write' }, timeoutSeconds: 60 },
    },
  },
  /**
   * "Download my data" (lambdas/domain/account/export.ts): execution name = the export id. BuildExport reads every
   * record of the account and streams its files (up to EXPORT_INLINE_MAX_BYTES) into one zip: memory stays at a
   * stream's buffers, and an account with thousands of results takes minutes at most, far inside 900 s. MailExport
   * sends through the stage's mail sender (SES, granted in CDK when the stage has one).
   */
  accountExport: {
    asl: 'account-export.asl.json',
    tasks: {
      BuildExport: {
        handler: 'account-build-export',
        tables: { profiles: 'write', limits: 'write', ledger: 'read', clothingItems: 'read', generations: 'read', jobs: 'read', batches: 'read', webhooks: 'read', apiKeys: 'read', imports: 'read', tickets: 'read', models: 'read', shops: 'read', publications: 'read' },
        buckets: { clothingImages: 'read', results: 'write' },
        timeoutSeconds: 900,
        memoryMb: 1024,
      },
      MailExport: { handler: 'account-mail-export', tables: { profiles: 'read' }, timeoutSeconds: 60 },
      ExportFailed: { handler: 'account-export-failed', tables: { profiles: 'write', limits: 'write' }, timeoutSeconds: 60 },
    },
  },
  /**
   * Deleting an account (lambdas/domain/account/deletion.ts): execution name = the account's tombstone id. The sign-in
   * goes first, then the connected shops are disconnected, the ledger is anonymised, the records and the files
   * deleted, each step repeated while it answers `more`.
   */
  deleteAccount: {
    asl: 'delete-account.asl.json',
    tasks: {
      // Reads the pool username the profile keeps (a federated user's is not its sub).
      DeleteSignIn: { handler: 'account-delete-sign-in', userPool: 'delete-users', tables: { profiles: 'read' }, timeoutSeconds: 30 },
      // The app is uninstalled from each connected shop (its tokens die with it) before the records go.
      DisconnectShops: { handler: 'account-disconnect-shops', tables: { shops: 'write' }, secrets: ['shopifyApp', 'shopTokenKey'], timeoutSeconds: 60 },
      AnonymiseLedger: { handler: 'account-anonymise-ledger', tables: { ledger: 'write', profiles: 'write', payments: 'write' }, timeoutSeconds: 60 },
      DeleteRecords: { handler: 'account-delete-records', tables: DELETED_TABLE_ACCESS, timeoutSeconds: 60 },
      DeleteObjects: { handler: 'account-delete-objects', buckets: { clothingImages: 'write', results: 'write' }, timeoutSeconds: 60 },
    },
  },
  /**
   * One event to one endpoint (lambdas/domain/webhooks/delivery.ts): execution name = <event id>_<endpoint id>.
   * Deliver tries once and says what next; a Wait state spaces the retries (the delays ride in the input), so no
   * function ever sleeps. A schedule that runs out ends in a Fail state: a failed execution, which raises the alarm.
   */
  webhookDelivery: {
    asl: 'webhook-delivery.asl.json',
    tasks: {
      // Each attempt reads the event's resource and signs its URLs (a batch's photos, a saved model's portrait).
      Deliver: {
        handler: 'webhook-deliver',
        tables: { webhooks: 'write', generations: 'read', jobs: 'read', batches: 'read', publications: 'read' },
        buckets: { results: 'read', clothingImages: 'read' },
        timeoutSeconds: 30,
      },
    },
  },
  /**
   * A publication to Shopify (lambdas/domain/shopify/publish.ts): execution name = publication id. A Map over the
   * file indexes with MaxConcurrency PUBLISH_CONCURRENCY runs PublishFile per file (a Wait between its steps), with
   * FileFailed caught inside the iteration; Finish last. Every task calls Shopify with the shop's sealed token.
   */
  publish: {
    asl: 'publish.asl.json',
    tasks: {
      // Reads the result (up to Shopify's 20 MB picture or one of our videos) and uploads it to Shopify's staged target.
      PublishFile: {
        handler: 'publish-file',
        tables: { publications: 'write', shops: 'write', generations: 'write' },
        buckets: { results: 'read' },
        secrets: ['shopifyApp', 'shopTokenKey'],
        timeoutSeconds: 120,
        memoryMb: 1024,
      },
      FileFailed: { handler: 'publish-file-failed', tables: { publications: 'write' }, timeoutSeconds: 60 },
      Finish: { handler: 'publish-finish', tables: { publications: 'write' }, timeoutSeconds: 60 },
    },
  },
} satisfies Record<string, WorkflowDefinition>;

/**
 * The publish Map's MaxConcurrency (a literal in lib/workflows/publish.asl.json; a unit test keeps the two equal): one
 * file at a time keeps a product's media in the publication's order and spends one shop's rate limit one call at a
 * time. It counts against the account's Lambda concurrency beside the batch Map's and the video workflow's
 * (lib/concurrency.ts).
 */
export const PUBLISH_CONCURRENCY = 1;

/**
 * The workflows whose Map state takes its MaxConcurrency from the execution input (MaxConcurrencyPath), and the
 * environment variable of the route that starts them which carries it: in the cloud the stage's concurrency budget
 * (lib/concurrency.ts) sets it, on the twin MAP_CONCURRENCY_LOCAL.
 */
export const MAP_CONCURRENCY_ENV = { batch: 'BATCH_MAX_CONCURRENCY', video: 'VIDEO_MAX_CONCURRENCY' } as const satisfies Partial<Record<WorkflowName, string>>;
export type MappedWorkflow = keyof typeof MAP_CONCURRENCY_ENV;
/** The twin's: its two cores, not an account's quota, bound them. */
export const MAP_CONCURRENCY_LOCAL = { batch: 4, video: 5 } as const satisfies Record<MappedWorkflow, number>;
/** An inline Map runs at most 40 iterations at once whatever it is asked. */
export const MAP_CONCURRENCY_LIMIT = 40;

/** The Map's MaxConcurrency of `workflow` on this host, from the starting route's environment. */
export function mapConcurrency(workflow: MappedWorkflow, env: NodeJS.ProcessEnv = process.env): number {
  const name = MAP_CONCURRENCY_ENV[workflow];
  const value = Number(requireEnv(name, env));
  if (!Number.isInteger(value) || value < 1 || value > MAP_CONCURRENCY_LIMIT) throw new Error(`${name} must be a whole number from 1 to ${MAP_CONCURRENCY_LIMIT}`);
  return value;
}

export type WorkflowName = keyof typeof WORKFLOWS;

/** The statuses of an execution that ended without reaching its own end state. */
export const ENDED_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/**
 * Settles the work of an execution that ended without doing so itself (FAILED, TIMED_OUT, ABORTED): in the cloud an
 * EventBridge rule on Step Functions' status changes calls it, on the twin the local Step Functions API does.
 */
export const WORKFLOW_ENDED_FUNCTION = {
  handler: 'workflow-ended',
  tables: { jobs: 'write', generations: 'write', profiles: 'write', ledger: 'write', batches: 'write', limits: 'write', publications: 'write' },
  workflows: ['video', 'generation', 'batch', 'publish'],
  timeoutSeconds: 60,
} as const satisfies TaskFunction & { workflows: readonly WorkflowName[] };

export { workflowEnvName } from './core/config.js';

/** Each workflow's own TimeoutSeconds (its ASL file; a unit test keeps the two equal): no execution runs longer. */
export const WORKFLOW_TIMEOUT_SECONDS = { generation: 1200, video: 3600, batch: 7200, batchArchive: 1800, accountExport: 1800, deleteAccount: 3600, webhookDelivery: 172800, publish: 14400 } as const satisfies Record<WorkflowName, number>;

/**
 * Settles work left in flight past its workflow's timeout, resumes account deletions whose execution died, and audits
 * the ledgers that moved: an EventBridge schedule
 * in the cloud (RECONCILER_SCHEDULE_MINUTES), a timer on the twin, which also runs it once at start for the work
 * whose executions the previous run took with it. It reads the in_flight and by_type_time indexes, never scans.
 */
export const RECONCILER_FUNCTION = {
  handler: 'reconciler',
  tables: { jobs: 'write', generations: 'write', batches: 'write', profiles: 'write', ledger: 'write', limits: 'write' },
  /** It resumes an account deletion whose execution died. */
  workflows: ['deleteAccount'],
  /**
   * On the twin's start (criterion `no-execution`) it looks up the execution of each generation, video and batch still
   * in flight (IN_FLIGHT_KINDS) before settling it: DescribeExecution only.
   */
  observes: ['generation', 'video', 'batch'],
  timeoutSeconds: 300,
} as const satisfies TaskFunction & { workflows: readonly WorkflowName[] };

export const RECONCILER_SCHEDULE_MINUTES = 15;

/**
 * Asks each provider once a day whether each model the stage calls is still served (lambdas/handlers/model-check.ts):
 * an EventBridge schedule in the cloud, deployed when a port uses a cloud provider. No tables; its provider access is
 * the key secrets and bedrock:GetFoundationModel only (ProviderAccess.grantModelCheck), not the adapters' calls.
 */
export const MODEL_CHECK_FUNCTION = { handler: 'model-check', timeoutSeconds: 120 } as const satisfies TaskFunction;
export const MODEL_CHECK_SCHEDULE_HOURS = 24;

