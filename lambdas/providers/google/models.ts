// The Google models the adapters call, what each can make natively, and the settings that choose them. Pure (no SDK):
// the registry, the CDK config, the price list (lambdas/providers/list-prices.ts) and the contract fake read it. Which
// ids exist, when they are shut down and what they cost: the dated table, model-table.ts.
//
// Gemini image ("Image generation with Gemini", https://ai.google.dev/gemini-api/docs/image-generation):
//   imageConfig.imageSize '1K' | '2K' | '4K' (uppercase K; 1K when unset), imageConfig.aspectRatio '1:1' '2:3' '3:2'
//   '3:4' '4:3' '4:5' '5:4' '9:16' '16:9' '21:9'. The long side is about 1024 / 2048 / 4096 px (9:16: 768×1376,
//   1536×2752, 3072×5504). Every image model of the table is a Gemini 3 image model and takes imageSize.
// Gemini Omni (https://ai.google.dev/gemini-api/docs/omni; the Gemini cookbook's Get_started_Omni notebook; Google
//   Cloud's "Gemini Omni 1.1 Flash Video Generation" notebook, GoogleCloudPlatform/generative-ai,
//   vision/getting-started/gemini_omni_1_1_flash_video_gen.ipynb, both read 2026-11-27): video through the
//   Interactions API, response_format { type: "video", aspect_ratio "16:9" | "9:16", duration "3s" … "10s",
//   resolution "360p" | "720p" | "1080p" | "4k", delivery "inline" | "uri" }, 24 fps, audio always made.
import { GOOGLE_MODEL_TABLE, type OmniResolution } from './model-table.js';

/** Image sizes Gemini image takes, smallest first, with the long side each makes (about). */
export const GEMINI_IMAGE_SIZES = [
  { name: '1K', longSide: 1376 },
  { name: '2K', longSide: 2752 },
  { name: '4K', longSide: 5504 },
] as const;
export type GeminiImageSize = (typeof GEMINI_IMAGE_SIZES)[number]['name'];

export const GEMINI_ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

/** The replacement Google names for a model it has shut down or will shut down; undefined for one it keeps. */
export function replacementOf(modelId: string): string | undefined {
  return GOOGLE_MODEL_TABLE[modelId]?.shutdown?.replacement;
}

export const GOOGLE_DEFAULTS = {
  /** The current Flash image model (GA): on-model photos and edits. */
  imageModel: 'gemini-3.1-flash-image',
  /**
   * The largest size the image adapter asks Gemini for; a larger photo is made at this size and brought to the
   * exact size through the upscale port. 1K keeps an on-model photo inside one credit at list price.
   */
  imageMaxSize: '1K' as GeminiImageSize,
  /**
   * The text model that enriches a model description when promptEnhance is on, with thinking off. A current 3.x
   * Flash-Lite: the 2.5 models are closed to new projects and gemini-2.5-flash-lite is shut down (model-table.ts).
   */
  textModel: 'gemini-3.5-flash-lite',
  /** Gemini Omni Flash 1.1 (GA since 2026-08-27), the replacement of the Veo 3.1 preview ids. */
  videoModel: 'gemini-omni-1.1-flash',
  /** Omni's output resolution: 720p, the delivered videos' own size; 360p is a draft, 1080p and 4K cost more. */
  videoResolution: '720p' as OmniResolution,
} as const;

/** Omni's clip lengths (seconds, whole) and frame ratios. */
export const OMNI_CLIP_SECONDS = { min: 3, max: 10 } as const;
export const OMNI_ASPECT_RATIOS = ['16:9', '9:16'] as const;

/** The sizes an image model makes natively (the sizes its row prices); 1K alone for an id the table does not price. */
export function imageModelSizes(modelId: string): readonly GeminiImageSize[] {
  const model = GOOGLE_MODEL_TABLE[modelId];
  return model?.kind === 'image' && model.prices ? (Object.keys(model.prices.perImage) as GeminiImageSize[]) : ['1K'];
}
