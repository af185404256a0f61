// The Google models the adapters call, what each can make natively, and the settings that choose them. Pure (no SDK):
// the registry, the CDK config, the price list (lambdas/providers/list-prices.ts) and the contract fake read it.
//
// Gemini image ("Image generation with Gemini", https://ai.google.dev/gemini-api/docs/image-generation):
//   imageConfig.imageSize '1K' | '2K' | '4K' (uppercase K; 1K when unset; gemini-3.1-flash-image-preview also '512'),
//   imageConfig.aspectRatio '1:1' '2:3' '3:2' '3:4' '4:3' '4:5' '5:4' '9:16' '16:9' '21:9'. The long side is about
//   1024 / 2048 / 4096 px (9:16: 768×1376, 1536×2752, 3072×5504). gemini-2.5-flash-image makes 1K only.
// Veo 3.1 ("Generate videos with Veo 3.1", https://ai.google.dev/gemini-api/docs/video): image-to-video with
//   `image` (first frame) and `lastFrame`; durationSeconds 4 | 6 | 8; aspectRatio '16:9' | '9:16'; resolution
//   '720p' | '1080p' (1080p for 8 s only); 24 fps; audio always generated on the Gemini API.

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
}

/** Known image models; an unknown model id (a newer one set by the operator) is assumed to make every size. */
export const GEMINI_IMAGE_MODELS: Record<string, GeminiImageModel> = {
  'gemini-3.1-flash-image-preview': { sizes: ['1K', '2K', '4K'] },
  'gemini-3-pro-image-preview': { sizes: ['1K', '2K', '4K'] },
  'gemini-2.5-flash-image': { sizes: ['1K'] },
};

export const GOOGLE_DEFAULTS = {
  /** The current Flash image model: on-model photos and edits. */
  imageModel: 'gemini-3.1-flash-image-preview',
  /**
   * The largest size the image adapter asks Gemini for; a larger photo is made at this size and brought to the
   * exact size through the upscale port. 1K keeps an on-model photo inside one credit at list price.
   */
  imageMaxSize: '1K' as GeminiImageSize,
  /** The text model that enriches a model description when promptEnhance is on. */
  textModel: 'gemini-2.5-flash',
  /** Veo 3.1 Fast. */
  videoModel: 'veo-3.1-fast-generate-preview',
} as const;

export function imageModelSizes(modelId: string): readonly GeminiImageSize[] {
  return GEMINI_IMAGE_MODELS[modelId]?.sizes ?? GEMINI_IMAGE_SIZES.map((size) => size.name);
}

/** Veo's clip lengths and frame ratios (Gemini API). */
export const VEO_CLIP_SECONDS = [4, 6, 8] as const;
export const VEO_ASPECT_RATIOS = ['16:9', '9:16'] as const;
export const VEO_RESOLUTION = '720p';
