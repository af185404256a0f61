// The model ids a stage calls, from its provider choice and Google settings, with the setting that names each; and the
// three providers' dated tables by provider. Pure: synth (lib/model-check.ts), `npm run providers:check` and the daily
// model check (lambdas/domain/operations/model-check.ts) read the same list.
import { BEDROCK_MODELS, bedrockModelsFor } from './bedrock/model-table.js';
import { FASHN_IMAGE_TO_VIDEO, FASHN_MODEL_TABLE, FASHN_PRODUCT_TO_MODEL } from './fashn/model-table.js';
import { GOOGLE_MODEL_TABLE } from './google/model-table.js';
import { GOOGLE_DEFAULTS } from './google/models.js';
import type { ConfiguredModel, ModelLifecycle, ModelProvider } from './model-lifecycle.js';

export const MODEL_TABLES: Record<ModelProvider, Readonly<Record<string, ModelLifecycle>>> = {
  google: GOOGLE_MODEL_TABLE,
  fashn: FASHN_MODEL_TABLE,
  bedrock: BEDROCK_MODELS,
};

export interface ModelSelection {
  providers: { image: string; edit: string; upscale: string; video: string };
  google?: { imageModel?: string; textModel?: string; videoModel?: string };
}

export function configuredModels(selection: ModelSelection): ConfiguredModel[] {
  const { providers } = selection;
  const google = { ...GOOGLE_DEFAULTS, ...selection.google };
  const models: ConfiguredModel[] = [];
  if (providers.image === 'google' || providers.edit === 'google') models.push({ provider: 'google', id: google.imageModel, setting: 'googleImageModel' });
  if (providers.image === 'google') models.push({ provider: 'google', id: google.textModel, setting: 'googleTextModel' });
  if (providers.video === 'google') models.push({ provider: 'google', id: google.videoModel, setting: 'googleVideoModel' });
  if (providers.image === 'fashn') models.push({ provider: 'fashn', id: FASHN_PRODUCT_TO_MODEL, setting: 'imageProvider fashn' });
  if (providers.video === 'fashn') models.push({ provider: 'fashn', id: FASHN_IMAGE_TO_VIDEO, setting: 'videoProvider fashn' });
  const bedrock = bedrockModelsFor({ edit: providers.edit === 'bedrock', upscale: providers.upscale === 'bedrock', video: providers.video === 'bedrock' });
  for (const id of bedrock) models.push({ provider: 'bedrock', id, setting: 'Bedrock model' });
  return models;
}
