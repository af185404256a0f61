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
  if (aiModel.startsWith('packshot-engine:')) {
    if (aiModel.endsWith('refined-mask')) return 'Packshot engine (your refined cutout)';
    return aiModel.endsWith('colour-key') ? 'Packshot engine (colour cutout)' : 'Packshot engine (U²-Net-p cutout)';
  }
  if (isPreviewModel(aiModel)) return 'Preview engine (no AI)';
  // A Bedrock model called through a cross-region inference profile carries its prefix (us.stability.…, the ids the
  // Stability adapters call: lambdas/providers/bedrock/stability-models.ts).
  const bedrock = aiModel.startsWith('bedrock:') ? aiModel.slice('bedrock:'.length).replace(/^(us|eu|apac|global)\./, '') : undefined;
  if (bedrock?.startsWith('stability.')) return 'Stability AI';
  if (bedrock?.startsWith('luma.')) return 'Luma Ray2';
  if (aiModel.startsWith('bedrock:')) return 'Amazon Bedrock';
  if (aiModel.toLowerCase().startsWith('fashn')) return 'FASHN';
  if (aiModel.toLowerCase().startsWith('google') || aiModel.startsWith('veo') || aiModel.startsWith('gemini')) return 'Google';
  return 'ModelLoop Studio';
}

/**
 * What a provider's result could not honour of its request, one sentence each, shown on its History row and under it:
 * e.g. a description the text model declined to enrich, used as written. (A preview result's `not_rendered` lists what
 * the preview engine could not draw; PreviewNote shows those.)
 */
export function resultNotes(generation: { ai_model: string | null; not_rendered?: readonly string[] | null }): string[] {
  if (isPreviewModel(generation.ai_model)) return [];
  return (generation.not_rendered ?? []).map((note) => (note.endsWith('.') ? note : `${note}.`));
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
