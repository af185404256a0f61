// VideoPort on Gemini Omni Flash (gemini-omni-1.1-flash), through the Interactions API of @google/genai
// (`ai.interactions.create` with `background: true`; checking the interaction and storing its clip: omni-status.ts).
// Sources, read 2026-11-27: "Generate and edit videos with Gemini Omni Flash 1.1" (google-gemini/cookbook,
// quickstarts/Get_started_Omni.ipynb; https://ai.google.dev/gemini-api/docs/omni) and Google Cloud's "Gemini Omni 1.1
// Flash Video Generation" notebook (GoogleCloudPlatform/generative-ai, vision/getting-started/
// gemini_omni_1_1_flash_video_gen.ipynb); the request's types are the installed SDK's (CreateModelInteraction,
// VideoResponseFormat, VideoConfig in node_modules/@google/genai/dist/genai.d.ts, 2.32.0).
//   POST https://generativelanguage.googleapis.com/v1beta/interactions   header x-goog-api-key
//   { model, background: true,
//     input: [{ type: "image", data, mime_type }, { type: "image", data, mime_type }, { type: "text", text }],
//     generation_config: { video_config: { task: "image_to_video" } },
//     response_format: { type: "video", aspect_ratio: "9:16" | "16:9", resolution: "720p", duration: "8s", delivery: "uri" } }
//   → { id, status: "in_progress", ... }
// Keyframe interpolation: two images and the image_to_video task make the first image the opening frame and the second
// the closing one ("Interpolation ... uses the image_to_video task. Providing a second image is what tells the model
// to interpolate toward that ending frame"; the cookbook's "Keyframe interpolation" is "ideal for ... seamless looping
// clips"). Both are the product photo, so the loop closes in the model; finalize still measures the seam.
// `background: true` answers at once with the interaction's id ("To generate a video that can be checked on later, set
// the background parameter to True. You can then use interactions.get to check the status"). `delivery: "uri"` keeps
// the finished clip as a file (https://generativelanguage.googleapis.com/v1beta/files/<id>:download?alt=media) instead
// of base64 inside the answer: the cookbook recommends it for "connection reliability and network resilience".
// Durations (duration "3s" to "10s"), the plan of each length: omni-plan.ts. Omni renders 16:9 and 9:16 only: 1:1 is
// made at 9:16 and padded to a square by finalize (a crop could cut the product).
//
// Billed duplicates: creating an interaction is not idempotent, and the SDK's Interactions client retries 408, 409,
// 429 and 5xx and connection errors four times by default (retry_codes ["408","409","429","5XX"], maxRetries 4 in
// interactionsCreate). A create that timed out or answered 5xx may still have started a clip Google bills, so its
// retries are off (`retries: { strategy: "none" }`); a 429 (nothing started) and a connection that was never made are
// retried here with backoff and then reported busy (the workflow's VideoProviderBusy retry); a 429 of a key without
// paid access ("limit: 0") is an account problem, not retried; any other failure is a failure, refunded.
import sharp from 'sharp';
import type { GoogleGenAI } from '@google/genai';
import { ProviderError, type ImageInput, type VideoClip, type VideoPort, type VideoStartRequest } from '../ports.js';
import type { GoogleClient } from './client.js';
import { busy, failed, failureOf, isAccountNotPaid, isPreCallFailure, toProviderError } from './errors.js';
import type { OmniResolution } from './model-table.js';
import { OMNI_ASPECT_RATIOS } from './models.js';
import { omniOperationName } from './omni-operation.js';
import { planOmniClips, UNSUPPORTED_DURATION_MESSAGE } from './omni-plan.js';
import { createOmniStatus, type OmniStatusOptions } from './omni-status.js';
import { loopPrompt } from './prompts.js';

/** The create call answers at once in the background: 60 s is far more than it takes. */
const CREATE_TIMEOUT_MS = 60_000;

/** The frame ratio Omni renders for an order: 9:16 and 16:9 as they are; 1:1 as 9:16, padded to a square later. */
export function omniAspectRatio(aspectRatio: VideoStartRequest['aspectRatio']): (typeof OMNI_ASPECT_RATIOS)[number] {
  return aspectRatio === '16:9' ? '16:9' : '9:16';
}

const FRAME_SIZES = { '9:16': { width: 720, height: 1280 }, '16:9': { width: 1280, height: 720 } } as const;

/** The product image fitted whole inside the clip's frame, padded with the colour of its own border. */
export async function omniFrame(image: ImageInput, ratio: (typeof OMNI_ASPECT_RATIOS)[number]): Promise<{ type: 'image'; data: string; mime_type: 'image/png' }> {
  const upright = sharp(image.bytes).rotate();
  const { dominant } = await sharp(await upright.clone().resize(32, 32, { fit: 'fill' }).png().toBuffer()).stats();
  const frame = FRAME_SIZES[ratio];
  const png = await upright
    .resize(frame.width, frame.height, { fit: 'contain', background: { r: dominant.r, g: dominant.g, b: dominant.b }, kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
  return { type: 'image', data: png.toString('base64'), mime_type: 'image/png' };
}

export interface OmniVideoOptions extends OmniStatusOptions {
  client: GoogleClient;
  model: string;
  resolution: OmniResolution;
  /** Starts a 429 or an unmade connection may be retried with, and the first back-off (doubling). Default 3 from 2 s. */
  busyRetry?: { attempts?: number; initialDelayMs?: number };
}

export interface OmniVideoPort extends VideoPort {
  planClips(durationSeconds: number): VideoClip[];
  start(request: VideoStartRequest & { clipIndex?: number }): Promise<{ operationName: string; model: string }>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The failures a create may be sent again after: nothing was started. */
const nothingStarted = (error: unknown) => (failureOf(error).status === 429 && !isAccountNotPaid(error)) || isPreCallFailure(error);

export function createOmniVideo(options: OmniVideoOptions): OmniVideoPort {
  const busyAttempts = Math.max(1, options.busyRetry?.attempts ?? 3);
  const busyDelayMs = options.busyRetry?.initialDelayMs ?? 2000;
  return {
    planClips: planOmniClips,

    async start(request) {
      const clip = planOmniClips(request.durationSeconds)[request.clipIndex ?? 0];
      if (!clip) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
      const ratio = omniAspectRatio(request.aspectRatio);
      const first = await omniFrame(request.image, ratio);
      const last = request.endImage ? await omniFrame(request.endImage, ratio) : first;
      let ai: GoogleGenAI;
      try {
        ai = await options.client();
      } catch (error) {
        throw toProviderError(error);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          const interaction = await ai.interactions.create(
            {
              model: options.model,
              background: true,
              input: [first, last, { type: 'text', text: loopPrompt(request.prompt, clip.seconds) }],
              generation_config: { video_config: { task: 'image_to_video' } },
              response_format: { type: 'video', aspect_ratio: ratio, resolution: options.resolution, duration: `${clip.seconds}s`, delivery: 'uri' },
            },
            // Not idempotent: never retried by the SDK (see the head of this file).
            { retries: { strategy: 'none' }, timeout_ms: CREATE_TIMEOUT_MS },
          );
          if (typeof interaction.id !== 'string' || !interaction.id) throw failed();
          return { operationName: omniOperationName(interaction.id, request.output), model: `google:${options.model}` };
        } catch (error) {
          if (error instanceof ProviderError) throw error;
          if (isAccountNotPaid(error)) throw toProviderError(error);
          if (nothingStarted(error)) {
            if (attempt >= busyAttempts) throw busy();
            await sleep(busyDelayMs * 2 ** (attempt - 1));
            continue;
          }
          // A timeout, a reset or a 5xx may have started a billed clip: failed (refunded), never sent again.
          throw failed();
        }
      }
    },

    check: createOmniStatus(options).check,
  };
}
