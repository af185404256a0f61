// The input of every workflow task, declared once: the handler checks its input against it at run time on both
// hosts (core/task.ts `workflowTask`), the domain's types are these schemas' types, and the twin's tools
// (`npm run invoke`, `npm run event`) check their events against the same objects through TASK_INPUTS. A bad input
// fails the task with TaskInputError, which the workflow's Catch takes like any failure (failed and refunded).
import * as z from 'zod';
import { AccountDeletionInput, AccountExportInput } from './account.js';
import { GENERATION_OPERATIONS } from './generations.js';
import { DeliveredVideo } from './video.js';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from './webhooks.js';

const id = () => z.string().min(1);

/** What a Catch leaves at $.error: the States error name and its cause (for the log only, never for the user). */
export const CaughtError = /* @__PURE__ */ (() => z.object({ Error: z.string().optional(), Cause: z.string().optional() }))();
export type CaughtError = z.infer<typeof CaughtError>;

/**
 * The generation workflow's input (execution name = the generation id). `operation` picks the task: an upscale runs
 * in Upscale, the function that carries the ESRGAN weights; anything else (or an input without it) in Process.
 */
export const GenerationTaskInput = /* @__PURE__ */ (() => z.object({ userId: id(), generationId: id(), operation: z.enum(GENERATION_OPERATIONS).optional() }))();
export type GenerationTaskInput = z.infer<typeof GenerationTaskInput>;
export const GenerationFailInput = /* @__PURE__ */ (() => GenerationTaskInput.extend({ error: CaughtError.optional() }))();

/** One output of a video job as it moves through StartClip → CheckClip (a loop) → FinalizeOutput. */
export const VideoOutputState = /* @__PURE__ */ (() =>
  z.object({
    userId: id(),
    jobId: id(),
    /** Which output of the job (0-based). */
    output: z.number().int().min(0),
    /** The clip StartClip starts next (absent: the first). */
    nextClip: z.number().int().optional(),
    clipIndex: z.number().int().optional(),
    clipCount: z.number().int().optional(),
    operationName: z.string().optional(),
    model: z.string().optional(),
    /** Keys (in the results bucket) of the clips that are ready, in order. */
    clips: z.array(z.string()).optional(),
    /** Checks made of the current clip. */
    attempts: z.number().int().optional(),
    /** When the execution started ($$.Execution.StartTime): the clips' deadline runs from it (domain/video/deadline.ts). */
    startedAt: z.string().optional(),
    status: z.enum(['running', 'next-clip', 'completed']).optional(),
  }))();
export type VideoOutputState = z.infer<typeof VideoOutputState>;
export const VideoFinalizeInput = /* @__PURE__ */ (() => VideoOutputState.extend({ clips: z.array(z.string()).min(1) }))();

/** What one Map iteration of the video workflow comes to: a delivered video, or the failure its Catch caught. */
export const VideoOutputResult = /* @__PURE__ */ (() =>
  z.union([
    DeliveredVideo.extend({ failed: z.literal(false).optional(), model: z.string() }),
    z.object({ failed: z.literal(true), output: z.number().int(), error: CaughtError.optional() }),
  ]))();
export type VideoOutputResult = z.infer<typeof VideoOutputResult>;
export const VideoCompleteInput = /* @__PURE__ */ (() => z.object({ userId: id(), jobId: id(), results: z.array(VideoOutputResult).min(1) }))();
export const VideoMarkFailedInput = /* @__PURE__ */ (() => z.object({ userId: id(), jobId: id(), error: CaughtError.optional() }))();

/** One photo of a batch (its generation id). */
export const BatchPhotoInput = /* @__PURE__ */ (() => z.object({ userId: id(), batchId: id(), photoId: id() }))();
export type BatchPhotoInput = z.infer<typeof BatchPhotoInput>;
export const BatchFailPhotoInput = /* @__PURE__ */ (() => BatchPhotoInput.extend({ error: CaughtError.optional() }))();
export const BatchSummarizeInput = /* @__PURE__ */ (() => z.object({ userId: id(), batchId: id() }))();

/** One delivery attempt of a webhook event to one endpoint (the workflow's Wait state spaces the retries). */
export const WebhookDeliveryInput = /* @__PURE__ */ (() =>
  z.object({
    userId: id(),
    endpointId: id(),
    /** The event's ids (WebhookEventRef): each attempt reads the resource and signs its URLs when it sends. */
    event: z.object({ id: id(), type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]), timestamp: z.string(), resourceId: id() }),
    /** The attempt about to be made (1 = the first). */
    attempt: z.number().int().min(1),
    /** Seconds before each retry; its length is the number of retries. */
    delays: z.array(z.number().int().min(0)),
  }))();

/** The batchArchive workflow's input (execution name = <batch id>-zip-<attempt>): the zip job of one batch. */
export const BatchArchiveInput = /* @__PURE__ */ (() => z.object({ userId: id(), batchId: id(), attempt: z.number().int().min(1) }))();
export type BatchArchiveInput = z.infer<typeof BatchArchiveInput>;

/**
 * The publish workflow's input (execution name = the publication id): `files` are the indexes of the publication's
 * files, in order (ids only in the state); each Map iteration publishes one.
 */
export const PublishInput = /* @__PURE__ */ (() => z.object({ userId: id(), publicationId: id(), files: z.array(z.number().int().min(0)) }))();
/** One file of a publication, as PublishFile's steps pass it on (`waits`: how many times it was waited on so far). */
export const PublishFileInput = /* @__PURE__ */ (() => z.object({ userId: id(), publicationId: id(), index: z.number().int().min(0), waits: z.number().int().min(0).optional() }))();
export type PublishFileInput = z.infer<typeof PublishFileInput>;
export const PublishFileFailedInput = /* @__PURE__ */ (() => PublishFileInput.extend({ error: CaughtError.optional() }))();
export type PublishFileFailedInput = z.infer<typeof PublishFileFailedInput>;
export const PublishFinishInput = /* @__PURE__ */ (() => z.object({ userId: id(), publicationId: id() }))();
export type PublishFinishInput = z.infer<typeof PublishFinishInput>;

/** Each task's input by its handler (lambdas/handlers/<name>.ts), for the twin's tools. */
export const TASK_INPUTS = {
  'generation-process': GenerationTaskInput,
  'generation-upscale': GenerationTaskInput,
  'generation-fail': GenerationFailInput,
  'video-start-clip': VideoOutputState,
  'video-check-clip': VideoOutputState,
  'video-finalize-output': VideoFinalizeInput,
  'video-complete-job': VideoCompleteInput,
  'video-mark-failed': VideoMarkFailedInput,
  'batch-fail-photo': BatchFailPhotoInput,
  'batch-summarize': BatchSummarizeInput,
  'account-delete-sign-in': AccountDeletionInput,
  'account-disconnect-shops': AccountDeletionInput,
  'account-anonymise-ledger': AccountDeletionInput,
  'account-delete-records': AccountDeletionInput,
  'account-delete-objects': AccountDeletionInput,
  'webhook-deliver': WebhookDeliveryInput,
  'batch-build-archive': BatchArchiveInput,
  'batch-archive-failed': BatchArchiveInput,
  'account-build-export': AccountExportInput,
  'account-mail-export': AccountExportInput,
  'account-export-failed': AccountExportInput,
  'publish-file': PublishFileInput,
  'publish-file-failed': PublishFileFailedInput,
  'publish-finish': PublishFinishInput,
} as const satisfies Record<string, z.ZodType>;
