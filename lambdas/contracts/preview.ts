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

/** The explanation shown beside a "Preview" badge, with a link to the studio's page on connecting a provider. */
export const PREVIEW_EXPLANATION =
  'Preview: made on this machine by the preview engine, without an AI model. Connect a provider for real on-model photos and videos.';

/**
 * One display name per model. Results name the adapter that made them ('preview-engine', 'bedrock:…'); a row that
 * ended before a provider named itself still carries the request's placeholder ('modelloop-studio', 'image-edit',
 * 'image-upscale', 'unknown'), which is the studio's own model.
 */
export function modelDisplayName(aiModel: string): string {
  if (aiModel.startsWith('packshot-engine:')) return aiModel.endsWith('colour-key') ? 'Packshot engine (colour cutout)' : 'Packshot engine (U²-Net-p cutout)';
  if (isPreviewModel(aiModel)) return 'Preview engine (no AI)';
  if (aiModel.startsWith('bedrock:stability.')) return 'Stability AI';
  if (aiModel.startsWith('bedrock:luma.')) return 'Luma Ray2';
  if (aiModel.startsWith('bedrock:')) return 'Amazon Bedrock';
  if (aiModel.toLowerCase().startsWith('fashn')) return 'FASHN';
  if (aiModel.toLowerCase().startsWith('google') || aiModel.startsWith('veo') || aiModel.startsWith('gemini')) return 'Google';
  return 'ModelLoop Studio';
}

/** What made a result, as the API answers it beside the result (`engine`) and the web app shows it under it. */
export interface ResultEngine {
  /** The adapter's model name, e.g. 'preview-engine', 'bedrock:luma.ray-v2:0'. */
  model: string;
  /** Its display name, e.g. 'Preview engine (no AI)'. */
  name: string;
  /** Whether it is the preview engine (no AI model): the result is labelled Preview. */
  preview: boolean;
  /** The sentence shown under the result: PREVIEW_EXPLANATION for a preview, 'Made by <name>.' otherwise. */
  note: string;
}

export function resultEngine(aiModel: string): ResultEngine {
  const preview = isPreviewModel(aiModel);
  const name = modelDisplayName(aiModel);
  return { model: aiModel, name, preview, note: preview ? PREVIEW_EXPLANATION : `Made by ${name}.` };
}
