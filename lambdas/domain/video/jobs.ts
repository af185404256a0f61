// The video job as the HTTP API sees it (generate-video, poll-operation, get-video-url, cancel, jobs). Nothing long
// runs here: generate-video checks the source image, then goes through the one spending flow (charge → store the
// source and write the job → start the video workflow, execution name = job id) and answers. A retried request
// (same Idempotency-Key and body) is charged once and answers the job the first request made.
import { videoFileName } from '../../contracts/file-names.js';
import { SHORT_LIST_LIMIT, SIGNED_URL_SECONDS, videoTier } from '../../contracts/catalog.js';
import {
  CANCELLED_BY_USER,
  MOTION_NOT_FOLLOWED,
  VIDEO_FAILURE_MESSAGES,
  type GenerateVideoResponse,
  type GetVideoUrlResponse,
  type JobListItem,
  type PollOperationResponse,
  type VideoJob,
} from '../../contracts/video.js';
import type { GenerateVideoRequest } from '../../contracts/video.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { executionArn, startExecution, stopExecution } from '../../core/sfn.js';
import { mapConcurrency } from '../../workflows.js';
import { createJob, getJob, listJobs, toJob, type JobItem } from '../../data/jobs-repo.js';
import { tierCost } from '../../data/pricing-repo.js';
import { writeObject } from '../../storage/objects.js';
import { presignAttachment, presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { resultEngine } from '../../contracts/preview.js';
import { engineModelName } from '../generation/engine-name.js';
import { MOTION_NOT_FOLLOWED_MESSAGE, videoMotionReading } from '../../providers/video-help.js';
import { videoSourceImage } from '../images/source.js';
import { spend, type SpendingRequest } from '../spending.js';
import { sourceKey } from './keys.js';
import { jobListItems } from './list-items.js';
import { failJob, refundOnCancel } from './settle.js';

type GenerateVideo = import('zod').output<typeof GenerateVideoRequest>;

/** What the workflow is started with; everything else it reads from the job. */
export interface VideoWorkflowInput {
  userId: string;
  jobId: string;
  /** One Map item per output: 0 … output_count − 1. */
  outputs: number[];
  /** The Map state's MaxConcurrency (MaxConcurrencyPath): outputs made at once. */
  maxConcurrency: number;
}

export async function generateVideo(spending: SpendingRequest, request: GenerateVideo): Promise<GenerateVideoResponse> {
  const { userId } = spending;
  // What the engine will make of the prompt is known now, so a prompt it would render none of is refused before any
  // charge, and what it leaves out is recorded for the result (GET /video-motion answers the same, free).
  const motion = videoMotionReading(request.prompt, request.output_count);
  if (motion.engine === 'preview-engine' && !motion.preset) throw badRequest(MOTION_NOT_FOLLOWED, MOTION_NOT_FOLLOWED_MESSAGE);
  const image = await videoSourceImage(userId, request);
  const cost = (await tierCost(videoTier(request.duration))) * request.output_count;
  const spent = await spend(spending, {
    cost,
    description: `Video generation: ${request.output_count} × ${request.duration} s ${request.aspect_ratio}`,
    running: 'video',
    record: async (jobId, debitId) => {
      const existing = await getJob(userId, jobId);
      if (existing) return existing;
      // The inline image is stored only now that this request has paid, under its own job's key.
      const key = image.uploadedKey ?? sourceKey(userId, jobId, image.mimeType);
      if (image.bytes) await writeObject('results', key, image.bytes, image.mimeType);
      const now = new Date().toISOString();
      return (
        await createJob({
          id: jobId,
          user_id: userId,
          status: 'generating',
          prompt: request.prompt,
          operation_name: executionArn('video', jobId),
          video_key: null,
          error_message: null,
          created_at: now,
          updated_at: now,
          duration: request.duration,
          aspect_ratio: request.aspect_ratio,
          output_count: request.output_count,
          outputs: [],
          seam_score: null,
          thumbnail_key: null,
          model: null,
          credits_charged: cost,
          credits_refunded: 0,
          not_rendered: motion.notRendered,
          output_descriptions: motion.outputs,
          source_key: key,
          source_mime_type: image.mimeType,
          ...(image.productName ? { product_name: image.productName } : {}),
          debit_id: debitId,
          paid_outputs_started: [],
        })
      ).job;
    },
    start: async (job) => {
      if (job.status === 'generating') await startWorkflow(job);
    },
  });
  return { jobId: spent.recordId, operationName: spent.record.operation_name, newCredits: spent.balanceAfter };
}

async function startWorkflow(job: JobItem): Promise<void> {
  const input: VideoWorkflowInput = {
    userId: job.user_id,
    jobId: job.id,
    outputs: Array.from({ length: job.output_count }, (_, index) => index),
    maxConcurrency: mapConcurrency('video'),
  };
  try {
    await startExecution('video', job.id, input);
  } catch (error) {
    // The job can't run: it ends now, refunded, rather than waiting for a workflow that never comes.
    log.error('video workflow did not start', { jobId: job.id, error });
    await failJob(job.user_id, job.id, VIDEO_FAILURE_MESSAGES.internal);
    throw error;
  }
}

async function ownJob(userId: string, jobId: string): Promise<JobItem> {
  const job = await getJob(userId, jobId);
  if (!job) throw notFound('This video job was not found.');
  return job;
}

/**
 * The job's state for the poller (the resume / Check Status call). It only reads: a job whose execution ended without
 * settling it is settled by workflow-ended (the execution's status change) or, if that was lost, by the reconciler.
 */
export async function pollOperation(userId: string, jobId: string, operationName: string): Promise<PollOperationResponse> {
  const job = await ownJob(userId, jobId);
  if (job.operation_name !== operationName) throw notFound('This video job was not found.');
  return {
    done: job.status !== 'generating',
    status: job.status,
    ...(job.status === 'failed' ? { error: { message: job.error_message ?? VIDEO_FAILURE_MESSAGES.internal } } : {}),
  };
}

/** Signed URLs of every delivered video of a complete job (and their poster frames). */
export async function videoUrls(userId: string, jobId: string): Promise<GetVideoUrlResponse> {
  const job = await ownJob(userId, jobId);
  if (job.status !== 'complete' || job.outputs.length === 0) throw conflict('VIDEO_NOT_READY', 'This video is not ready yet.');
  const expiresAt = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
  const signedUrls = await Promise.all(job.outputs.map((output) => presignDownload('results', output.video_key, 'video/mp4', SIGNED_URL_SECONDS)));
  const downloadUrls = await Promise.all(
    job.outputs.map((output) =>
      presignAttachment('results', output.video_key, 'video/mp4', videoFileName(job, output), SIGNED_URL_SECONDS),
    ),
  );
  const thumbnailUrls = await Promise.all(
    job.outputs.map((output) => presignDownload('results', output.thumbnail_key, 'image/jpeg', SIGNED_URL_SECONDS)),
  );
  return {
    signedUrl: signedUrls[0]!,
    signedUrls,
    downloadUrls,
    thumbnailUrls,
    expiresAt,
    engine: resultEngine(job.model ?? engineModelName('video', 'unknown')),
    descriptions: job.output_descriptions?.length ? job.outputs.map((output) => job.output_descriptions![output.index] ?? '') : [],
    notRendered: job.not_rendered ?? [],
  };
}

/**
 * Cancelling: a generating job is set to failed with 'Cancelled by user' and its workflow stopped. What comes back is
 * every output whose paid provider call has not started (refundOnCancel); an output already running at a paid
 * provider has cost us, so it is not refunded.
 */
export async function cancelJob(userId: string, jobId: string): Promise<VideoJob> {
  const job = await ownJob(userId, jobId);
  if (job.status !== 'generating') throw conflict('JOB_FINISHED', 'This video job has already finished.');
  const ended = await failJob(userId, jobId, CANCELLED_BY_USER, refundOnCancel);
  if (ended?.status !== 'failed' || ended.error_message !== CANCELLED_BY_USER) {
    throw conflict('JOB_FINISHED', 'This video job has already finished.');
  }
  await stopExecution(job.operation_name, { error: 'CancelledByUser', cause: CANCELLED_BY_USER });
  return toJob(ended);
}

/** The caller's newest jobs (newest first, at most 10: the video screen's recent list), each with a signed URL of its poster frame. */
export async function recentJobs(userId: string): Promise<JobListItem[]> {
  return jobListItems(await listJobs(userId, SHORT_LIST_LIMIT));
}
