// What the Luma Ray2 adapter sends to Bedrock, as pure functions.
// Source: "Luma AI models - Amazon Bedrock", https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-luma.html:
//   StartAsyncInvoke { modelId: "luma.ray-v2:0",
//                      modelInput: { prompt (1–5000 chars), aspect_ratio ("1:1" "16:9" "9:16" "4:3" "3:4" "21:9" "9:21"),
//                                    loop (boolean), duration ("5s" | "9s"), resolution ("540p" | "720p"),
//                                    keyframes: { frame0: { type: "image",
//                                                           source: { type: "base64", media_type: "image/jpeg", data } },
//                                                 frame1?: (the same shape: the frame the clip ends on) } },
//                      outputDataConfig: { s3OutputDataConfig: { s3Uri: "s3://bucket/prefix" } } }
//   Image requirements (Performance Notes / Troubleshooting): JPEG or PNG, at least 512×512, at most 4096×4096.
//   frame1 as an end frame: Luma's "Video Generation" guide (https://docs.lumalabs.ai/docs/video-generation,
//   "With start and end frame"), which the Bedrock page points to for the model's use.
// A Bedrock request is at most 25 MB, so each keyframe is encoded to at most KEYFRAME_MAX_BASE64_CHARS.
import { createHash } from 'node:crypto';
import { MOTION_PRESETS, VIDEO_DURATIONS } from '../../contracts/catalog.js';
import { ProviderError, type ImageInput, type S3Location, type VideoStartRequest } from '../ports.js';
import { displaySize, encodeWithin, fitWithinLimits, padToMinimum, resampleToPng } from './image-sizing.js';
import { LUMA_RAY2_MODEL_ID } from './luma-model.js';

export { LUMA_RAY2_MODEL_ID };
/** 540p: Ray2 costs $0.75/s there against $1.50/s at 720p; finalize brings every clip to the delivered size. */
export const LUMA_RESOLUTION = '540p';
const PROMPT_MAX_CHARS = 5000;
export const KEYFRAME_LIMITS = { minSide: 512, maxSide: 4096, maxPixels: 4096 * 4096 } as const;
/** Two keyframes and the prompt stay well inside Bedrock's 25 MB request. */
export const KEYFRAME_MAX_BASE64_CHARS = 10_000_000;

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
  /** 'source': frame1 is the product image (the last clip of a chain), so the chain ends where it began. */
  endKeyframe?: 'source';
}

/**
 * The clips for a video of `durationSeconds`: 5 → [5s]; 8 → [9s] (finalize trims to 8); 16 → [9s, 9s] (the second
 * keyed from the first's last frame and ending on the product image; finalize joins and trims 18 s to 16). A single
 * clip closes its own loop (`loop: true`); a chain closes it with the last clip's end keyframe, since `loop` only
 * loops a clip onto itself.
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
  if (clips.length > 1) clips[clips.length - 1]!.endKeyframe = 'source';
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

/**
 * A keyframe as Ray2 accepts it: JPEG or PNG, upright, 512 to 4096 px a side, within KEYFRAME_MAX_BASE64_CHARS.
 * Fitting inputs pass unchanged; a picture too thin to reach 512 px without passing 4096 px is padded (its edge
 * pixels repeated) rather than cut.
 */
export async function keyframeImage(image: ImageInput): Promise<{ mediaType: 'image/jpeg' | 'image/png'; data: string }> {
  const size = await displaySize(image.bytes);
  const target = fitWithinLimits(size, KEYFRAME_LIMITS);
  const fits = !size.needsRotation && target.width === size.width && target.height === size.height;
  const sendable = image.mimeType === 'image/jpeg' || image.mimeType === 'image/png';
  if (fits && sendable && image.bytes.length <= (KEYFRAME_MAX_BASE64_CHARS / 4) * 3) {
    return { mediaType: image.mimeType as 'image/jpeg' | 'image/png', data: image.bytes.toString('base64') };
  }
  const resized = fits ? image.bytes : await resampleToPng(image.bytes, target, 'fill');
  const padded = await padToMinimum(resized, KEYFRAME_LIMITS.minSide);
  const encoded = await encodeWithin(padded, KEYFRAME_MAX_BASE64_CHARS, { lossless: image.mimeType !== 'image/jpeg' });
  return { mediaType: encoded.mediaType, data: encoded.bytes.toString('base64') };
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
  keyframes: { frame0: LumaKeyframe; frame1?: LumaKeyframe };
};

export type LumaKeyframe = { type: 'image'; source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png'; data: string } };

async function keyframe(image: ImageInput): Promise<LumaKeyframe> {
  const encoded = await keyframeImage(image);
  return { type: 'image', source: { type: 'base64', media_type: encoded.mediaType, data: encoded.data } };
}

export interface LumaStartInput {
  modelId: string;
  modelInput: LumaModelInput;
  outputDataConfig: { s3OutputDataConfig: { s3Uri: string } };
  clientRequestToken: string;
}

export async function lumaStartInput(request: VideoStartRequest, clip: ClipPlan, modelId = LUMA_RAY2_MODEL_ID): Promise<LumaStartInput> {
  const endImage = clip.endKeyframe === 'source' ? request.endImage : undefined;
  if (clip.endKeyframe === 'source' && !endImage) throw new Error('the last clip of a chain needs the product image as its end frame');
  const modelInput: LumaModelInput = {
    prompt: motionPrompt(request.prompt),
    aspect_ratio: request.aspectRatio,
    // One clip loops onto itself; a clip of a chain must not, or each clip would end where it began.
    loop: planClips(request.durationSeconds).length === 1,
    duration: clip.duration,
    resolution: LUMA_RESOLUTION,
    keyframes: { frame0: await keyframe(request.image), ...(endImage ? { frame1: await keyframe(endImage) } : {}) },
  };
  const s3Uri = outputPrefixUri(request.output);
  // Idempotency: a retried start of the same clip (same input, same place) must not start a second paid job.
  const clientRequestToken = createHash('sha256').update(modelId).update(s3Uri).update(JSON.stringify(modelInput)).digest('hex');
  return { modelId, modelInput, outputDataConfig: { s3OutputDataConfig: { s3Uri } }, clientRequestToken };
}
