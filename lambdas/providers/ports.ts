// One port per AI capability. Adapters: the local studio engine (default, deterministic, no AI) and the cloud
// adapters (Bedrock Stability, Bedrock Luma Ray2, an HTTPS fashion-model API). Configuration picks one per port.
import { PROVIDER_MESSAGES, type BATCH_CAMERA_ANGLES, type CAMERA_ZOOMS, type PRODUCT_TYPES, type VIDEO_ASPECT_RATIOS } from '../contracts/catalog.js';
import type { CutoutMeasures } from '../contracts/marketplace.js';

export type ImageMimeType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface ImageInput {
  bytes: Buffer;
  mimeType: ImageMimeType;
}

export interface ImageOutput {
  bytes: Buffer;
  /** PNG from every provider; JPEG where a preset asks for it (packshots). */
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** Which adapter made it, e.g. 'preview-engine' or 'bedrock:stability.stable-image-upscale'; shown as ai_model. */
  model: string;
  /** What the request asked for that this adapter did not render (e.g. words of the model description); shown under the result. */
  notRendered?: string[];
  /** A packshot's: what its cutout measured of itself (the compliance report's cutout rules). */
  cutout?: CutoutMeasures;
}

export interface Size {
  width: number;
  height: number;
}

/**
 * The person an on-model photo shows. A saved model (a persona of the Models screen) brings its own description,
 * optional reference portrait and fixed seed; a described one has a seed derived from its description
 * (`seedOfDescription`), so the same words give the same person wherever an adapter takes a seed.
 */
export interface ModelPersona {
  /** The model description: gender presentation, age range, skin tone, hair, build, expression, pose style. */
  description: string;
  /** A saved model's reference portrait (Gemini: a second image part; FASHN: face_reference). */
  referenceImage?: ImageInput;
  /** Fixed per saved model; providers that take a seed get it, so they repeat themselves. */
  seed: number;
  /** The saved model's id, when the request named one. */
  modelId?: string;
}

/** A stable 31-bit seed from a description (FNV-1a over the trimmed, lower-cased words). */
export function seedOfDescription(description: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(description.trim().toLowerCase().replace(/\s+/g, ' '), 'utf8')) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}

/** A size's ratio in lowest terms, 'W:H' (720×1280 → '9:16'). */
export function aspectRatioOf({ width, height }: Size): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

export interface OnModelImageRequest {
  product: ImageInput;
  productType: (typeof PRODUCT_TYPES)[number];
  /** Who wears or shows the product. */
  model: ModelPersona;
  cameraZoom: (typeof CAMERA_ZOOMS)[number];
  /** The exact output size; its ratio is `aspectRatio`. */
  size: Size;
  /** The output's aspect ratio, 'W:H' (e.g. '9:16', '1:1', '4:5', '3:4'). */
  aspectRatio: string;
  promptEnhance: boolean;
  /**
   * A batch photo's camera angle. The local engine composes each angle differently; cloud adapters get the angle's
   * zoom through cameraZoom.
   */
  angle?: (typeof BATCH_CAMERA_ANGLES)[number];
  /** A batch photo's backdrop colour, #RRGGBB. */
  backdrop?: string;
}

/**
 * A paid provider job that may outlive one attempt of the task that started it. An adapter whose provider bills per
 * job and answers later (FASHN) hands the job's id to `remember` before it waits for it; a retry of the same request
 * finds that id in `started` and waits for the same job instead of paying for a second one.
 */
export interface ProviderJobMemory {
  /** The job an earlier attempt started, if any. */
  started?: string;
  remember(jobId: string): Promise<void>;
}

export interface OnModelImagePort {
  generate(request: OnModelImageRequest, job?: ProviderJobMemory): Promise<ImageOutput>;
}

export interface EditPort {
  edit(request: { image: ImageInput; instruction: string }): Promise<ImageOutput>;
}

export interface UpscalePort {
  /** The output has exactly this size. */
  upscale(request: { image: ImageInput; size: Size }): Promise<ImageOutput>;
}

/** Where a video adapter writes its raw clip. */
export interface S3Location {
  bucket: string;
  key: string;
}

export interface VideoStartRequest {
  image: ImageInput;
  /** A preset name (Pivot, Catwalk, 360 Spin) or a custom motion prompt. */
  prompt: string;
  durationSeconds: number;
  aspectRatio: (typeof VIDEO_ASPECT_RATIOS)[number];
  size: Size;
  /** The raw clip goes here (an MP4). */
  output: S3Location;
  /**
   * The frame the clip must end on, where the clip plan says so (the last clip of a chain ends on the product image,
   * so the chain's join back to its first frame is a join of the same picture).
   */
  endImage?: ImageInput;
  /**
   * Which output of the job this clip belongs to (0-based). A job's outputs must differ: the local engine renders a
   * variant of the motion per output; a cloud model gets its own call per output (and a seed, where it takes one).
   */
  variant?: number;
}

export type VideoStatus =
  | { state: 'running' }
  | { state: 'completed'; output: S3Location }
  | { state: 'failed'; error: ProviderError };

export interface VideoPort {
  /** Starts a clip; returns the provider's operation name to check later. */
  start(request: VideoStartRequest): Promise<{ operationName: string; model: string }>;
  check(operationName: string): Promise<VideoStatus>;
}

export type ProviderErrorKind =
  /** The provider refused the input ('Content Policy Violation' in the catalogue). */
  | 'content_policy'
  /** The request can't be done by this adapter (e.g. an edit instruction the local engine doesn't understand). */
  | 'unsupported'
  /** Worth retrying: throttling, timeouts, 5xx. */
  | 'transient'
  /** The provider account can't take paid requests (no billing, a free-tier key): never retried, says so. */
  | 'account'
  | 'failed';

/** A provider failure with a message that is safe to show to the user (never a raw provider message). */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const CONTENT_POLICY_MESSAGE = PROVIDER_MESSAGES.contentPolicy;

// ——— The ports as the rest of the app holds them ———

/** One clip of a video; clip i > 0 starts from the last frame of clip i - 1. */
export interface VideoClip {
  seconds: number;
  keyframe: 'source' | 'previous-clip-last-frame';
  /** 'source': the clip ends on the product image (the workflow passes it as `endImage`). */
  endKeyframe?: 'source';
}

/**
 * The video port as the workflow uses it: it asks `planClips` how many clips make the requested length (the local
 * engine renders any length in one clip; Luma Ray2 needs two 9 s clips for 16 s), starts clip i with `clipIndex: i`
 * (for i > 0 with the previous clip's last frame as `image`), and the finalize step joins and trims the clips.
 */
export interface ChainedVideoPort extends VideoPort {
  planClips(durationSeconds: number): VideoClip[];
  start(request: VideoStartRequest & { clipIndex?: number }): Promise<{ operationName: string; model: string }>;
}

export interface Providers {
  onModelImage: OnModelImagePort;
  edit: EditPort;
  upscale: UpscalePort;
  video: ChainedVideoPort;
}

export interface LocalEngine {
  onModelImage: OnModelImagePort;
  edit: EditPort;
  upscale: UpscalePort;
  video: VideoPort;
}
