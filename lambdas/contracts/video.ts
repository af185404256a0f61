// The video feature's requests, answers and server texts (the jobs table, a video job's states, generate-video,
// poll-operation, get-video-url), shared by the handlers, the video workflow's tasks and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';
import { INLINE_IMAGE_TOO_LARGE, inlineImageField } from './inline-image.js';
import { resultEngine, type ResultEngine } from './preview.js';
import {
  DEFAULT_VIDEO_ASPECT_RATIO,
  DEFAULT_VIDEO_DURATION,
  MOTION_PRESETS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_OUTPUT_COUNTS,
} from './catalog.js';

export const JOB_STATUSES = ['generating', 'complete', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const MOTION_PROMPT_REQUIRED = 'Please describe the motion you want';
export const IMAGE_REQUIRED = 'Please upload an image first';
export const MOTION_PROMPT_MAX_LENGTH = 1000;

export { CANCELLED_BY_USER, VIDEO_FAILURE_MESSAGES } from './video-failures.js';

/** The largest image sent inline as base64 (contracts/inline-image.ts); the web app uploads larger ones first. */
export { INLINE_IMAGE_MAX_BYTES } from './inline-image.js';

export const VideoDuration = /* @__PURE__ */ (() => z.literal(VIDEO_DURATIONS, { error: `The duration must be ${VIDEO_DURATIONS.join(', ')} seconds` }))();
export const VideoAspectRatio = /* @__PURE__ */ (() => z.enum(VIDEO_ASPECT_RATIOS, { error: `The aspect ratio must be ${VIDEO_ASPECT_RATIOS.join(', ')}` }))();
export const VideoOutputCount = /* @__PURE__ */ (() => z.literal(VIDEO_OUTPUT_COUNTS, { error: `The number of videos must be ${VIDEO_OUTPUT_COUNTS.join(', ')}` }))();

/**
 * POST /generate-video. The image is `imageBase64` (the public API's field: base64 or a data: URL; at most
 * INLINE_IMAGE_MAX_BYTES, 4 MB, what a Lambda request's 6 MB holds: contracts/inline-image.ts), `imageKey` (a file the caller uploaded through
 * POST /generation-uploads/upload-url, up to 6 MB: what the web app sends for larger files), `generationId` (one of
 * the caller's finished images: on-model, edit or upscale) or `clothingItemId` (an item of the caller's library).
 * Exactly one is needed.
 */
const motionPrompt = () =>
  z
    .string({ error: MOTION_PROMPT_REQUIRED })
    .trim()
    .min(1, MOTION_PROMPT_REQUIRED)
    .max(MOTION_PROMPT_MAX_LENGTH, `The motion prompt can be at most ${MOTION_PROMPT_MAX_LENGTH} characters`);

export const GenerateVideoRequest = /* @__PURE__ */ (() => z.object({
  imageBase64: inlineImageField(IMAGE_REQUIRED).optional(),
  imageKey: z.string().trim().min(1, IMAGE_REQUIRED).max(512).optional(),
  generationId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'This is not a generation id.').optional(),
  clothingItemId: z.string().trim().min(1).max(64).optional(),
  prompt: motionPrompt(),
  duration: VideoDuration.default(DEFAULT_VIDEO_DURATION),
  aspect_ratio: VideoAspectRatio.default(DEFAULT_VIDEO_ASPECT_RATIO),
  output_count: VideoOutputCount.default(1),
}))();
export type GenerateVideoRequest = z.input<typeof GenerateVideoRequest>;

/** The ways a video's source image can be named; a request carries exactly one. */
export const VIDEO_SOURCE_FIELDS = ['imageBase64', 'imageKey', 'generationId', 'clothingItemId'] as const;

export const GenerateVideoResponse = /* @__PURE__ */ (() => z.object({
  jobId: z.string(),
  /** The workflow execution that makes the video (its ARN); poll-operation takes it back. */
  operationName: z.string(),
  newCredits: z.number().int(),
}))();
export type GenerateVideoResponse = z.infer<typeof GenerateVideoResponse>;

/** GET /video-motion?prompt=…: what the configured video engine will make of a motion prompt, before anything is paid. */
export const VideoMotionQuery = /* @__PURE__ */ (() => z.object({ prompt: motionPrompt() }))();
export type VideoMotionQuery = z.input<typeof VideoMotionQuery>;

/**
 * The answer: for the preview engine, the preset the prompt selects (null: none of its words names a motion the
 * engine makes, and generate-video refuses it before any charge, 400 MOTION_NOT_FOLLOWED), the prompt's phrases it
 * renders and those it does not (listed under the result as not rendered), and how each output of an order of five
 * differs; for a provider's video model, which follows the words as written, only the engine and the help.
 */
export const VideoMotionReading = /* @__PURE__ */ (() => z.object({
  engine: z.enum(['preview-engine', 'provider']),
  preset: z.enum(MOTION_PRESETS).nullable(),
  followed: z.array(z.string()),
  notRendered: z.array(z.string()),
  /** 'Output 1: steady camera.', 'Output 2: turns the other way; the camera pans …' (the first n of an order of n). */
  outputs: z.array(z.string()),
  help: z.string(),
}))();
export type VideoMotionReading = z.infer<typeof VideoMotionReading>;

/** The refusal of a prompt the preview engine would render none of (before any charge). */
export const MOTION_NOT_FOLLOWED = 'MOTION_NOT_FOLLOWED';

export const PollOperationRequest = /* @__PURE__ */ (() => z.object({
  operationName: z.string({ error: 'operationName is required' }).min(1, 'operationName is required').max(512),
  jobId: z.string({ error: 'jobId is required' }).min(1, 'jobId is required').max(64),
}))();
export type PollOperationRequest = z.infer<typeof PollOperationRequest>;

export const PollOperationResponse = /* @__PURE__ */ (() => z.object({
  done: z.boolean(),
  status: z.enum(JOB_STATUSES),
  error: z.object({ message: z.string() }).optional(),
}))();
export type PollOperationResponse = z.infer<typeof PollOperationResponse>;

export const GetVideoUrlRequest = /* @__PURE__ */ (() => z.object({
  jobId: z.string({ error: 'jobId is required' }).min(1, 'jobId is required').max(64),
}))();

/** What made a result (contracts/preview.ts resultEngine): the same sentence under every image and video. */
export const ResultEngineSchema = /* @__PURE__ */ (() => z.object({
  model: z.string(),
  name: z.string(),
  preview: z.boolean(),
  note: z.string(),
}))();

export const GetVideoUrlResponse = /* @__PURE__ */ (() => z.object({
  /** The first video, signed for SIGNED_URL_SECONDS. */
  signedUrl: z.string(),
  /** Every delivered video of the job, in output order (one per output_count that succeeded). */
  signedUrls: z.array(z.string()),
  /**
   * The same videos signed to be saved (Content-Disposition: attachment, named after the product, the output, the
   * size and the duration: contracts/file-names.ts videoFileName): a browser downloads them by following the link,
   * with no cross-origin read.
   */
  downloadUrls: z.array(z.string()),
  thumbnailUrls: z.array(z.string()),
  expiresAt: z.string(),
  /** What made the videos. */
  engine: ResultEngineSchema,
  /** How each delivered video differs from the others ('Output 2: turns the other way; …'), in the same order; empty from a provider. */
  descriptions: z.array(z.string()),
  /** What the prompt asked for that the engine did not render. */
  notRendered: z.array(z.string()),
}))();
export type GetVideoUrlResponse = z.infer<typeof GetVideoUrlResponse>;

/**
 * One delivered video of a job as the code and the jobs table hold it: `video_key` and `thumbnail_key` are keys in the
 * results bucket (the API answers them as `video_url` and `thumbnail_url`: see VideoOutput).
 */
export const DeliveredVideo = /* @__PURE__ */ (() => z.object({
  index: z.number().int(),
  video_key: z.string(),
  thumbnail_key: z.string(),
  /** Seam score of the delivered file (≤ 1: the loop's seam is no larger than an ordinary frame step). */
  seam_score: z.number(),
  /** Seam score of the provider's clip after normalizing, before any repair. */
  original_seam_score: z.number(),
  repaired: z.boolean(),
  duration_seconds: z.number(),
  width: z.number().int(),
  height: z.number().int(),
}))();
export type DeliveredVideo = z.infer<typeof DeliveredVideo>;

/**
 * One delivered video of a job on the wire. `video_url` and `thumbnail_url` are the public API's names; they hold
 * the keys in the results bucket (POST /get-video-url signs them).
 */
export const VideoOutput = /* @__PURE__ */ (() => DeliveredVideo.omit({ video_key: true, thumbnail_key: true }).extend({
  video_url: z.string(),
  thumbnail_url: z.string(),
}))();
export type VideoOutput = z.infer<typeof VideoOutput>;

/** A delivered video under the wire's names. */
export function videoOutputOnWire({ video_key, thumbnail_key, ...output }: DeliveredVideo): VideoOutput {
  return { ...output, video_url: video_key, thumbnail_url: thumbnail_key };
}

/** A row of the jobs table plus what the video pipeline records. */
export const VideoJob = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  user_id: z.string(),
  status: z.enum(JOB_STATUSES),
  prompt: z.string(),
  operation_name: z.string(),
  /** Key of the first delivered video; null until complete (the public API's name: it holds a key). */
  video_url: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  duration: z.number().int(),
  aspect_ratio: z.enum(VIDEO_ASPECT_RATIOS),
  output_count: z.number().int(),
  outputs: z.array(VideoOutput),
  seam_score: z.number().nullable(),
  /** Key of the first delivered video's poster frame; null until complete (the public API's name: it holds a key). */
  thumbnail_url: z.string().nullable(),
  model: z.string().nullable(),
  credits_charged: z.number().int(),
  credits_refunded: z.number().int(),
  /** What cancelling now would give back: outputs not yet started at a paid provider (all of them on the local engine). */
  refundable_credits: z.number().int(),
  /** What made the videos; null until a provider has started the job. */
  engine: ResultEngineSchema.nullable(),
  /** What the prompt asked for that the engine does not render (the preview engine's reading, recorded before the charge). */
  not_rendered: z.array(z.string()),
  /** How each output of the order differs, by output index ('Output 2: turns the other way; …'); empty from a provider. */
  output_descriptions: z.array(z.string()),
}))();
export type VideoJob = z.infer<typeof VideoJob>;

/** A video job as the code holds it: the answer's fields, its files named by key, without what is computed on reading. */
export type VideoJobRecord = Omit<VideoJob, 'video_url' | 'thumbnail_url' | 'outputs' | 'refundable_credits' | 'engine' | 'not_rendered' | 'output_descriptions'> & {
  /** Absent on jobs made before the engine's reading was recorded. */
  not_rendered?: string[];
  output_descriptions?: string[];
  /** Key of the first delivered video in the results bucket; null until complete. */
  video_key: string | null;
  /** Key of the first delivered video's poster frame; null until complete. */
  thumbnail_key: string | null;
  outputs: DeliveredVideo[];
};

/** A job as the API answers it: its keys under the public API's names (`video_url`, `thumbnail_url`). */
export function videoJobOnWire({ video_key, thumbnail_key, outputs, not_rendered, output_descriptions, ...job }: VideoJobRecord, refundable_credits: number): VideoJob {
  const engine: ResultEngine | null = job.model ? resultEngine(job.model) : null;
  return {
    ...job,
    video_url: video_key,
    thumbnail_url: thumbnail_key,
    outputs: outputs.map(videoOutputOnWire),
    refundable_credits,
    engine,
    not_rendered: not_rendered ?? [],
    output_descriptions: output_descriptions ?? [],
  };
}

/** The history row (generation id) of a job's delivered video `index` (0-based): what History lists and Shopify publishes. */
export const videoResultId = (jobId: string, index: number) => `${jobId}-${index + 1}`;

/** A job as the history list shows it: with a signed URL for its poster frame. */
export const JobListItem = /* @__PURE__ */ (() => VideoJob.extend({
  thumbnail_signed_url: z.string().nullable(),
  /** When thumbnail_signed_url stops working (3600 s, or sooner when its signing credentials expire). */
  url_expires_at: z.string(),
}))();
export type JobListItem = z.infer<typeof JobListItem>;

export const JobsResponse = /* @__PURE__ */ (() => z.object({ items: z.array(JobListItem) }))();

// ——— Routes (lambdas/contracts/route.ts) ———

export const generateVideoRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/generate-video',
  auth: 'user',
  publicApi: true,
  summary: 'Start a looping product video',
  body: GenerateVideoRequest,
  idempotent: true,
  response: GenerateVideoResponse,
  errors: { 403: ROUTE_ERRORS.notYours, 409: ROUTE_ERRORS.imageNotReady, 413: INLINE_IMAGE_TOO_LARGE.message },
  sample: { body: { imageBase64: '{{productPhotoBase64}}', prompt: 'Pivot', duration: 5, aspect_ratio: '9:16', output_count: 1 } },
}))();

export const readVideoMotionRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/video-motion',
  auth: 'user',
  publicApi: true,
  summary:
    'What the video engine will make of a motion prompt, before you pay (free). generate-video refuses a prompt the preview engine would render none of (400 MOTION_NOT_FOLLOWED), before any charge.',
  query: VideoMotionQuery,
  response: VideoMotionReading,
  sample: { query: { prompt: 'the model twirls around and waves at the camera' } },
}))();

export const pollOperationRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/poll-operation',
  auth: 'user',
  publicApi: true,
  summary: "A video job's progress",
  body: PollOperationRequest,
  response: PollOperationResponse,
  sample: { body: { jobId: SAMPLE_IDS.job, operationName: `arn:aws:states:us-east-1:000000000000:execution:modelloop-video:${SAMPLE_IDS.job}` } },
}))();

export const getVideoUrlRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/get-video-url',
  auth: 'user',
  publicApi: true,
  summary: "Signed URLs of a finished video's files",
  body: GetVideoUrlRequest,
  response: GetVideoUrlResponse,
  errors: { 409: 'The video is not finished yet (VIDEO_NOT_READY).' },
  sample: { body: { jobId: SAMPLE_IDS.job } },
}))();

export const cancelJobRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/jobs/{id}/cancel',
  auth: 'user',
  publicApi: true,
  summary: 'Cancel a video job (its credits are refunded)',
  response: VideoJob,
  errors: { 409: 'The job has already finished (JOB_FINISHED).' },
  sample: { params: { id: SAMPLE_IDS.job } },
}))();

export const listJobsRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/jobs', auth: 'user', publicApi: true, summary: 'Your video jobs', response: JobsResponse }))();
