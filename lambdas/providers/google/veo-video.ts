// VideoPort on Veo 3.1 (fast by default), started through @google/genai's `models.generateVideos`, a long-running
// operation whose first frame (`image`) and last frame (`config.lastFrame`) are both the product image, so the loop
// closes in the model itself. Checking the operation and storing its clip: veo-status.ts.
// Request ("Generate videos with Veo 3.1", https://ai.google.dev/gemini-api/docs/video; REST:
// POST https://generativelanguage.googleapis.com/v1beta/models/{model}:predictLongRunning, header x-goog-api-key):
//   { instances: [{ prompt, image: { bytesBase64Encoded, mimeType }, lastFrame: { bytesBase64Encoded, mimeType } }],
//     parameters: { aspectRatio: "9:16" | "16:9", durationSeconds: 4 | 6 | 8, resolution: "720p",
//                   personGeneration: "allow_adult", negativePrompt } }
//   → { name: "models/veo-3.1-fast-generate-preview/operations/..." }
// The SDK call: ai.models.generateVideos({ model, source: { prompt, image: { imageBytes, mimeType } },
//   config: { aspectRatio, durationSeconds, resolution, lastFrame: { imageBytes, mimeType }, personGeneration,
//   negativePrompt, numberOfVideos: 1 } }).
//
// Lengths: 8 s is one native clip. 5 s is one 6 s clip that finalize retimes to 5 s (never trimmed: a trim would cut
// the frames that return to the product). The Veo guide of November 2025 says of durationSeconds: "Must be "8" when
// using extension or interpolation" (interpolation: `image` with `lastFrame`); later copies dropped interpolation from
// that rule. So the 6 s clip is asked for first, and on that exact refusal (400 INVALID_ARGUMENT naming the duration
// and 8) the same clip is asked for at 8 s, which finalize retimes to 5 s: the loop still closes in the model. The
// price list counts the 8 s (veoBilledSeconds). 16 s is two 8 s clips, each from the product image to the product
// image, so both joins land on the same frame. 1:1 is made at 9:16 and padded to a square by finalize (a crop could
// cut the product); the product image is fitted inside the clip's frame with padding, never cropped.
//
// personGeneration: the guide lists "allow_adult" as the only value for image-to-video, but a 2026 forum report
// (discuss.ai.google.dev, "Veo 3.1 image-to-video: 400 INVALID_ARGUMENT ... allow_adult ... not supported") shows the
// API refusing it; on that exact refusal the start is sent once more without the field.
//
// Billed duplicates: predictLongRunning is not idempotent. A POST that timed out or answered 5xx may still have started
// a clip that Google bills, so this call is never retried on those: the SDK's retries are off for it
// (httpOptions.retryOptions.attempts 1), a 429 (RESOURCE_EXHAUSTED: nothing was started) is retried here with backoff
// and then reported busy (the workflow's VideoProviderBusy retry), and any other failure is a failure, refunded.
import sharp from 'sharp';
import { VIDEO_DURATIONS } from '../../contracts/catalog.js';
import { ProviderError, type ImageInput, type VideoClip, type VideoPort, type VideoStartRequest } from '../ports.js';
import type { GoogleClient } from './client.js';
import { busy, failed, toProviderError } from './errors.js';
import { VEO_RESOLUTION, type VEO_ASPECT_RATIOS } from './models.js';
import { veoPrompt } from './prompts.js';
import { veoOperationName } from './veo-operation.js';
import { createVeoStatus, type VeoStatusOptions } from './veo-status.js';

export const UNSUPPORTED_DURATION_MESSAGE = `Videos can be ${VIDEO_DURATIONS.join(', ')} seconds long.`;
const NEGATIVE_PROMPT = 'text, captions, watermark, logo overlay, distorted product, extra limbs';

/** Veo's clips for a video of `durationSeconds`: 5 → one 6 s clip (retimed), 8 → one 8 s clip, 16 → two 8 s clips. */
export function planVeoClips(durationSeconds: number): VideoClip[] {
  if (durationSeconds === 5) return [{ seconds: 6, keyframe: 'source' }];
  if (durationSeconds === 8) return [{ seconds: 8, keyframe: 'source' }];
  if (durationSeconds === 16) return [{ seconds: 8, keyframe: 'source' }, { seconds: 8, keyframe: 'source' }];
  throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
}

/** The only clip length Veo takes with interpolation under the stricter copy of the guide. */
export const VEO_INTERPOLATION_SECONDS = 8;

/** Seconds of video Google may bill for a video of `durationSeconds`: every clip at the length it may fall back to. */
export function veoBilledSeconds(durationSeconds: number): number {
  return planVeoClips(durationSeconds).reduce((total, clip) => total + Math.max(clip.seconds, VEO_INTERPOLATION_SECONDS), 0);
}

interface ApiFailure {
  status?: number;
  text: string;
}

function apiFailure(error: unknown): ApiFailure {
  const candidate = (typeof error === 'object' && error !== null ? error : {}) as { status?: unknown; message?: unknown };
  return { status: typeof candidate.status === 'number' ? candidate.status : undefined, text: String(candidate.message ?? '') };
}

/** 400 INVALID_ARGUMENT saying durationSeconds must be 8 (with lastFrame): "Must be "8" when using ... interpolation". */
export function isInterpolationDurationRefusal(error: unknown): boolean {
  const { status, text } = apiFailure(error);
  return status === 400 && /duration/i.test(text) && /\b8\b/.test(text);
}

/** 400 INVALID_ARGUMENT refusing personGeneration "allow_adult". */
export function isPersonGenerationRefusal(error: unknown): boolean {
  const { status, text } = apiFailure(error);
  return status === 400 && /allow_adult/i.test(text) && /not supported|unsupported|isn't supported|is not allowed/i.test(text);
}

/** The frame ratio Veo renders for an order: 9:16 and 16:9 as they are; 1:1 as 9:16, padded to a square later. */
export function veoAspectRatio(aspectRatio: VideoStartRequest['aspectRatio']): (typeof VEO_ASPECT_RATIOS)[number] {
  return aspectRatio === '16:9' ? '16:9' : '9:16';
}

const FRAME_SIZES = { '9:16': { width: 720, height: 1280 }, '16:9': { width: 1280, height: 720 } } as const;

/** The product image fitted whole inside the clip's frame, padded with the colour of its own border. */
export async function veoFrame(image: ImageInput, ratio: (typeof VEO_ASPECT_RATIOS)[number]): Promise<{ imageBytes: string; mimeType: 'image/png' }> {
  const upright = sharp(image.bytes).rotate();
  const { dominant } = await sharp(await upright.clone().resize(32, 32, { fit: 'fill' }).png().toBuffer()).stats();
  const frame = FRAME_SIZES[ratio];
  const png = await upright
    .resize(frame.width, frame.height, { fit: 'contain', background: { r: dominant.r, g: dominant.g, b: dominant.b }, kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
  return { imageBytes: png.toString('base64'), mimeType: 'image/png' };
}

export interface VeoVideoOptions extends VeoStatusOptions {
  client: GoogleClient;
  model: string;
  /** Starts a 429 may be retried with, and the first back-off (doubling). Default 3 attempts from 2 s. */
  busyRetry?: { attempts?: number; initialDelayMs?: number };
}

export interface VeoVideoPort extends VideoPort {
  planClips(durationSeconds: number): VideoClip[];
  start(request: VideoStartRequest & { clipIndex?: number }): Promise<{ operationName: string; model: string }>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createVeoVideo(options: VeoVideoOptions): VeoVideoPort {
  const busyAttempts = Math.max(1, options.busyRetry?.attempts ?? 3);
  const busyDelayMs = options.busyRetry?.initialDelayMs ?? 2000;
  return {
    planClips: planVeoClips,

    async start(request) {
      const clip = planVeoClips(request.durationSeconds)[request.clipIndex ?? 0];
      if (!clip) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
      const ratio = veoAspectRatio(request.aspectRatio);
      // Every Veo clip starts and ends on the product image, whatever image the workflow passes for a later clip.
      const frame = await veoFrame(request.image, ratio);
      const ai = await options.client().catch((error: unknown) => {
        throw toProviderError(error);
      });
      let seconds = clip.seconds;
      let personGeneration = true;
      let busy429 = 0;
      for (;;) {
        try {
          const operation = await ai.models.generateVideos({
            model: options.model,
            source: { prompt: veoPrompt(request.prompt), image: frame },
            config: {
              aspectRatio: ratio,
              durationSeconds: seconds,
              resolution: VEO_RESOLUTION,
              lastFrame: frame,
              ...(personGeneration ? { personGeneration: 'allow_adult' } : {}),
              negativePrompt: NEGATIVE_PROMPT,
              numberOfVideos: 1,
              // Not idempotent: never retried by the SDK (see the head of this file).
              httpOptions: { retryOptions: { attempts: 1 } },
            },
          });
          if (!operation.name) throw failed();
          return { operationName: veoOperationName(operation.name, request.output), model: `google:${options.model}` };
        } catch (error) {
          if (error instanceof ProviderError) throw error;
          if (personGeneration && isPersonGenerationRefusal(error)) {
            personGeneration = false;
            continue;
          }
          if (seconds < VEO_INTERPOLATION_SECONDS && isInterpolationDurationRefusal(error)) {
            seconds = VEO_INTERPOLATION_SECONDS;
            continue;
          }
          if (apiFailure(error).status === 429) {
            if (++busy429 >= busyAttempts) throw busy();
            await sleep(busyDelayMs * 2 ** (busy429 - 1));
            continue;
          }
          // A timeout, a reset or a 5xx may have started a billed clip: failed (refunded), never retried.
          throw failed();
        }
      }
    },

    check: createVeoStatus(options).check,
  };
}
