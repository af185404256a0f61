// What a result of the preview engine (the local studio engine: sharp and ffmpeg on this machine, no AI model) is
// called, and the sentence that explains it wherever such a result is shown.

/** ai_model of every picture and video the preview engine makes. */
export const PREVIEW_ENGINE_MODEL = 'preview-engine';

/** Rows made before the engine was called the preview engine name it so. */
const EARLIER_NAMES: readonly string[] = ['local-engine'];

/**
 * Whether a result was made by the preview engine (no generative AI model): 'preview-engine', or one of its named
 * steps, e.g. 'preview-engine:esrgan-slim' (an upscale enlarged by the offline ESRGAN super-resolution network).
 */
export function isPreviewModel(aiModel: string | null | undefined): boolean {
  if (aiModel === null || aiModel === undefined) return false;
  return aiModel === PREVIEW_ENGINE_MODEL || aiModel.startsWith(`${PREVIEW_ENGINE_MODEL}:`) || EARLIER_NAMES.includes(aiModel);
}

/** The explanation shown beside a "Preview" badge; the link goes to PROVIDERS_GUIDE_PATH. */
export const PREVIEW_EXPLANATION =
  'Preview: made on this machine by the preview engine, without an AI model. Connect a provider for real on-model photos and videos.';

/** The providers guide's section on AI providers, as the web app serves it (copied from docs/providers.md by the web build). */
export const PROVIDERS_GUIDE_PATH = '/guide/providers.txt';
