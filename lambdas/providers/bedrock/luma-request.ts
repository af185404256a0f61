// What the Luma Ray2 adapter sends to Bedrock, as pure functions.
// Source: "Luma AI models - Amazon Bedrock", https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-luma.html:
//   StartAsyncInvoke { modelId: "luma.ray-v2:0",
//                      modelInput: { prompt (1–5000 chars), aspect_ratio ("1:1" "16:9" "9:16" "4:3" "3:4" "21:9" "9:21"),
//                                    loop (boolean), duration ("5s" | "9s"), resolution ("540p" | "720p"),
//                                    keyframes: { frame0: { type: "image",
//                                                           source: { type: "base64", media_type: "image/jpeg", data } } } },
//                      outputDataConfig: { s3OutputDataConfig: { s3Uri: "s3://bucket/prefix" } } }
//   Image requirements (Performance Notes / Troubleshooting): JPEG or PNG, at least 512×512, at most 4096×4096.
import { createHash } from 'node:crypto';
import { MOTION_PRESETS, VIDEO_DURATIONS } from '../../contracts/catalog.js';
import { ProviderError, type ImageInput, type S3Location, type VideoStartRequest } from '../ports.js';
import { displaySize, fitWithinLimits, resampleToPng } from './image-sizing.js';
import { LUMA_RAY2_MODEL_ID } from './luma-model.js';

export { LUMA_RAY2_MODEL_ID };
export const LUMA_RESOLUTION = '720p';
const PROMPT_MAX_CHARS = 5000;
const KEYFRAME_LIMITS = { minSide: 512, maxSide: 4096, maxPixels: 4096 * 4096 } as const;

export const UNSUPPORTED_DURATION_MESSAGE = `Videos can be ${VIDEO_DURATIONS.join(', ')} seconds long.`;

/**
 * One Ray2 clip of a video. Ray2 renders 5 s or 9 s; a longer video is a chain of clips where each later clip is
 * keyed (frame0) by the last frame of the clip before it, and the finalize step joins them and trims to the
 * requested length.
 */
export interface ClipPlan {
  duration: '5s' | '9s';
  seconds: 5 | 9;
  /** 'source': frame0 is the product image; 'previous-clip-last-frame': the workflow passes that frame as `image`. */
  keyframe: 'source' | 'previous-clip-last-frame';
}

/**
 * The clips for a video of `durationSeconds`: 5 → [5s]; 8 → [9s] (finalize trims to 8); 16 → [9s, 9s] (the second
 * keyed from the first's last frame; finalize joins and trims 18 s to 16).
 */
export function planClips(durationSeconds: number): ClipPlan[] {
  const longest = Math.max(...VIDEO_DURATIONS);
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > longest) {
    throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
  }
  const clips: ClipPlan[] = [];
  for (let covered = 0; covered < durationSeconds; covered += clips[clips.length - 1]!.seconds) {
    const seconds = durationSeconds - covered <= 5 ? 5 : 9;
    clips.push({ duration: `${seconds}s`, seconds, keyframe: clips.length === 0 ? 'source' : 'previous-clip-last-frame' });
  }
  return clips;
}

/** Seconds of raw footage the clips deliver before finalize trims them (5, 9 or 18 for 5, 8 and 16). */
export const plannedSeconds = (clips: ClipPlan[]): number => clips.reduce((total, clip) => total + clip.seconds, 0);

const PRESET_MOTION: Record<(typeof MOTION_PRESETS)[number], string> = {
  Pivot: 'The model turns slowly on the spot to show the garment from the side, then turns back to face the camera',
  Catwalk: 'The model walks towards the camera with a confident catwalk stride, the camera tracking smoothly',
  '360 Spin': 'The camera orbits smoothly all the way around the model and the product',
};

/** A preset name becomes its motion description; a custom prompt is used as written. */
export function motionPrompt(prompt: string): string {
  const preset = MOTION_PRESETS.find((name) => name.toLowerCase() === prompt.trim().toLowerCase());
  const motion = preset ? PRESET_MOTION[preset] : prompt.trim();
  const text = `${motion}. Fashion product video, studio lighting, steady framing, seamless loop.`;
  return text.slice(0, PROMPT_MAX_CHARS);
}

/** frame0 as Ray2 accepts it: JPEG or PNG between 512 and 4096 px a side, upright. Fitting inputs pass unchanged. */
export async function keyframeImage(image: ImageInput): Promise<{ mediaType: 'image/jpeg' | 'image/png'; data: string }> {
  const size = await displaySize(image.bytes);
  const target = fitWithinLimits(size, KEYFRAME_LIMITS);
  const fits = !size.needsRotation && target.width === size.width && target.height === size.height;
  if (fits && (image.mimeType === 'image/jpeg' || image.mimeType === 'image/png')) {
    return { mediaType: image.mimeType, data: image.bytes.toString('base64') };
  }
  const png = await resampleToPng(image.bytes, target, 'fill');
  return { mediaType: 'image/png', data: png.toString('base64') };
}

/**
 * Bedrock writes the clip under this prefix (in a folder named after the invocation id), so the port's
 * `output.key` is used without its `.mp4` ending as the prefix; `check` reports the exact key of the MP4.
 */
export function outputPrefixUri(output: S3Location): string {
  const prefix = output.key.replace(/\.mp4$/i, '').replace(/\/+$/, '');
  if (!output.bucket || !prefix) throw new Error('video output location needs a bucket and a key');
  return `s3://${output.bucket}/${prefix}`;
}

/** The documented modelInput (a type alias, so that it is a Smithy DocumentType). */
export type LumaModelInput = {
  prompt: string;
  aspect_ratio: VideoStartRequest['aspectRatio'];
  loop: boolean;
  duration: ClipPlan['duration'];
  resolution: typeof LUMA_RESOLUTION;
  keyframes: { frame0: { type: 'image'; source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png'; data: string } } };
};

export interface LumaStartInput {
  modelId: string;
  modelInput: LumaModelInput;
  outputDataConfig: { s3OutputDataConfig: { s3Uri: string } };
  clientRequestToken: string;
}

export async function lumaStartInput(request: VideoStartRequest, clip: ClipPlan, modelId = LUMA_RAY2_MODEL_ID): Promise<LumaStartInput> {
  const frame0 = await keyframeImage(request.image);
  const modelInput: LumaModelInput = {
    prompt: motionPrompt(request.prompt),
    aspect_ratio: request.aspectRatio,
    loop: true,
    duration: clip.duration,
    resolution: LUMA_RESOLUTION,
    keyframes: { frame0: { type: 'image', source: { type: 'base64', media_type: frame0.mediaType, data: frame0.data } } },
  };
  const s3Uri = outputPrefixUri(request.output);
  // Idempotency: a retried start of the same clip (same input, same place) must not start a second paid job.
  const clientRequestToken = createHash('sha256').update(modelId).update(s3Uri).update(JSON.stringify(modelInput)).digest('hex');
  return { modelId, modelInput, outputDataConfig: { s3OutputDataConfig: { s3Uri } }, clientRequestToken };
}
