// Whether a FASHN image-to-video clip is ready, and storing it where the video workflow reads clips. This half of the
// FASHN video adapter needs no image code, so the workflow's CheckClip task loads it alone (../video-status.ts).
//
// GET /v1/status/{id} (fashn-api.ts): "starting" | "in_queue" | "processing" → running; "completed" with
// output[0] the MP4's URL ("Image to Video - FASHN", https://docs.fashn.ai/api-reference/image-to-video: "The output
// array contains URLs to your generated MP4 video(s)"); "failed" with error.name (ContentModerationError → Content
// Policy Violation), "canceled" and "time_out" → failed. FASHN keeps the file on its CDN, so `check` downloads it once
// it is ready (guarded, recognised by its `ftyp` box) and stores it at the output location `start` was given, which
// the operation name carries.
import type { S3Location, VideoStatus } from '../ports.js';
import { ProviderError } from '../ports.js';
import { createFashnApi, PENDING_STATUSES, type FashnApiOptions } from './fashn-api.js';
import { errorForRuntimeFailure, FASHN_FAILED_MESSAGE } from './fashn-errors.js';
import { fetchOutputVideo } from './outputs.js';

/** Stores a finished clip's MP4 at its output location. */
export type StoreClip = (location: S3Location, bytes: Buffer) => Promise<void>;

export interface FashnVideoStatusOptions extends FashnApiOptions {
  storeClip: StoreClip;
  /** Time one check may take, status and download together. */
  checkDeadlineMs?: number;
}

/** The CheckClip task has 60 s. */
export const DEFAULT_CHECK_DEADLINE_MS = 45_000;

const OPERATION = /^fashn-video:([^:]+):([^:]+):(.+)$/;

/** The operation name of a started clip: the prediction id and where its MP4 goes. */
export function clipOperationName(predictionId: string, output: S3Location): string {
  return `fashn-video:${predictionId}:${output.bucket}:${output.key}`;
}

export function parseClipOperation(operationName: string): { predictionId: string; output: S3Location } {
  const match = OPERATION.exec(operationName);
  if (!match) throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
  return { predictionId: match[1]!, output: { bucket: match[2]!, key: match[3]! } };
}

export function createFashnVideoStatus(options: FashnVideoStatusOptions): { check(operationName: string): Promise<VideoStatus> } {
  const api = createFashnApi(options);
  const checkDeadlineMs = options.checkDeadlineMs ?? DEFAULT_CHECK_DEADLINE_MS;
  return {
    async check(operationName): Promise<VideoStatus> {
      const { predictionId, output } = parseClipOperation(operationName);
      const deadline = Date.now() + checkDeadlineMs;
      const status = await api.status(predictionId, deadline);
      if (PENDING_STATUSES.has(status?.status)) return { state: 'running' };
      if (status?.status !== 'completed') return { state: 'failed', error: errorForRuntimeFailure(status?.error?.name) };
      const url = Array.isArray(status.output) ? (status.output as unknown[])[0] : undefined;
      if (typeof url !== 'string') return { state: 'failed', error: new ProviderError('failed', FASHN_FAILED_MESSAGE) };
      const bytes = await fetchOutputVideo(url, api.outputPolicy, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
      await options.storeClip(output, bytes);
      return { state: 'completed', output };
    },
  };
}
