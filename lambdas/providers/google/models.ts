// The Google models the adapters call, what each can make natively, and the settings that choose them. Pure (no SDK):
// the registry, the CDK config, the price list (lambdas/providers/list-prices.ts) and the contract fake read it.
//
// Gemini image ("Image generation with Gemini", https://ai.google.dev/gemini-api/docs/image-generation):
//   imageConfig.imageSize '1K' | '2K' | '4K' (uppercase K; 1K when unset), imageConfig.aspectRatio '1:1' '2:3' '3:2'
//   '3:4' '4:3' '4:5' '5:4' '9:16' '16:9' '21:9'. The long side is about 1024 / 2048 / 4096 px (9:16: 768×1376,
//   1536×2752, 3072×5504). Only the Gemini 3 image models take imageSize; a model that makes 1K only is not sent it.
// Model ids: Gemini API release notes, 2026-05-28: "Launched gemini-3.1-flash-image (Nano Banana 2) and
//   gemini-3-pro-image (Nano Banana Pro), the generally available (GA) versions of our native image models ...
//   Deprecation notice: The gemini-3.1-flash-image-preview and gemini-3-pro-image-preview models are deprecated and
//   will be shut down on June 25, 2026." (https://ai.google.dev/gemini-api/docs/changelog; the deprecations page,
//   https://ai.google.dev/gemini-api/docs/deprecations, lists gemini-2.5-flash-image's shutdown as October 2, 2026.)
// Veo 3.1 ("Generate videos with Veo 3.1", https://ai.google.dev/gemini-api/docs/video): image-to-video with
//   `image` (first frame) and `lastFrame`; durationSeconds 4 | 6 | 8 (the November 2025 copy: "Must be "8" when using
//   extension or interpolation"); aspectRatio '16:9' | '9:16'; resolution '720p' | '1080p' (1080p for 8 s only);
//   24 fps; audio always generated on the Gemini API.

/** Image sizes Gemini image takes, smallest first, with the long side each makes (about). */
export const GEMINI_IMAGE_SIZES = [
  { name: '1K', longSide: 1376 },
  { name: '2K', longSide: 2752 },
  { name: '4K', longSide: 5504 },
] as const;
export type GeminiImageSize = (typeof GEMINI_IMAGE_SIZES)[number]['name'];

export const GEMINI_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

export interface GeminiImageModel {
  /** The sizes the model makes natively. */
  sizes: readonly GeminiImageSize[];
  /** Whether the model takes imageConfig.imageSize (the Gemini 3 image models); otherwise it is never sent. */
  imageSize: boolean;
}

/**
 * The image models the adapters may call, each priced in lambdas/providers/list-prices.ts. An id outside this table
 * (and the price list) is refused at synth: the adapters would not know its sizes, nor the margin check its cost.
 */
export const GEMINI_IMAGE_MODELS: Record<string, GeminiImageModel> = {
  'gemini-3.1-flash-image': { sizes: ['1K', '2K', '4K'], imageSize: true },
  'gemini-3-pro-image': { sizes: ['1K', '2K', '4K'], imageSize: true },
};

/** Model ids Google has shut down, with their replacement: synth names the replacement, the contract fake refuses them. */
export const RETIRED_GOOGLE_MODELS: Record<string, string> = {
  'gemini-3.1-flash-image-preview': 'gemini-3.1-flash-image',
  'gemini-3-pro-image-preview': 'gemini-3-pro-image',
  'gemini-2.5-flash-image': 'gemini-3.1-flash-image',
};

export const GOOGLE_DEFAULTS = {
  /** The current Flash image model (GA): on-model photos and edits. */
  imageModel: 'gemini-3.1-flash-image',
  /**
   * The largest size the image adapter asks Gemini for; a larger photo is made at this size and brought to the
   * exact size through the upscale port. 1K keeps an on-model photo inside one credit at list price.
   */
  imageMaxSize: '1K' as GeminiImageSize,
  /**
   * The text model that enriches a model description when promptEnhance is on, with thinking off
   * (thinkingConfig.thinkingBudget 0). gemini-2.5-flash is deprecated (deprecations page: shut down, requests routed
   * to another model); Flash-Lite "is not deprecated and remains available through the API until further notice".
   */
  textModel: 'gemini-2.5-flash-lite',
  /** Veo 3.1 Fast. */
  videoModel: 'veo-3.1-fast-generate-preview',
} as const;

/** The sizes a model makes natively: 1K alone for a model the table does not know. */
export function imageModelSizes(modelId: string): readonly GeminiImageSize[] {
  return GEMINI_IMAGE_MODELS[modelId]?.sizes ?? ['1K'];
}

/** Whether the model takes imageConfig.imageSize. */
export function acceptsImageSize(modelId: string): boolean {
  return GEMINI_IMAGE_MODELS[modelId]?.imageSize ?? false;
}

/** Veo's clip lengths and frame ratios (Gemini API). */
export const VEO_CLIP_SECONDS = [4, 6, 8] as const;
export const VEO_ASPECT_RATIOS = ['16:9', '9:16'] as const;
export const VEO_RESOLUTION = '720p';
