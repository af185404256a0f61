// Every Amazon Bedrock model the adapters call, with its price and the documents behind each, read on the dates given.
// Pure data: synth (lib/model-check.ts), the price list (../list-prices.ts) and the model checks read it; the model
// checks ask Bedrock itself too (GetFoundationModel's modelLifecycle.status: ACTIVE or LEGACY).
//
// Lifecycle: "A model offered on Amazon Bedrock can be in one of these states: Active, Legacy, or End-of-Life (EOL)
// ... when you make a GetFoundationModel or ListFoundationModels call, the state of the model will be shown in the
// modelLifecycle field ... Once a model launches on Amazon Bedrock, it will remain on Amazon Bedrock for at least 12
// months before the EOL date" ("Model lifecycle", https://docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle.html,
// read 2026-11-27). None of these models has a Legacy or EOL date there; their launch dates were not read, so the
// entries carry none.
import type { DatedDocument, ModelLifecycle } from '../model-lifecycle.js';
import { LUMA_RAY2_MODEL_ID } from './luma-model.js';
import { DEFAULT_STABILITY_MODEL_IDS } from './stability-models.js';

const read = (url: string, day: string, quote?: string): DatedDocument => ({ url, read: day, ...(quote ? { quote } : {}) });
const LIFECYCLE = read('https://docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle.html', '2026-11-27');
const PRICING = read('https://aws.amazon.com/bedrock/pricing', '2026-11-26');

export type BedrockModel = ModelLifecycle & { kind: 'stability-edit' | 'stability-upscale' | 'luma'; prices: { perImage: number } | { perSecond: Record<'540p' | '720p', number> } };

const stability = (use: string, kind: 'stability-edit' | 'stability-upscale', perImage: number): BedrockModel => ({
  kind,
  use,
  lifecycleSource: LIFECYCLE,
  prices: { perImage },
  priceSource: PRICING,
});

export const BEDROCK_MODELS: Readonly<Record<string, BedrockModel>> = {
  [DEFAULT_STABILITY_MODEL_IDS.searchReplace]: stability('edits (search and replace)', 'stability-edit', 0.07),
  [DEFAULT_STABILITY_MODEL_IDS.searchRecolor]: stability('edits (search and recolor)', 'stability-edit', 0.07),
  [DEFAULT_STABILITY_MODEL_IDS.removeBackground]: stability('edits (remove background)', 'stability-edit', 0.07),
  [DEFAULT_STABILITY_MODEL_IDS.fastUpscale]: stability('upscales (fast upscale ×4)', 'stability-upscale', 0.03),
  [LUMA_RAY2_MODEL_ID]: { kind: 'luma', use: 'videos (videoProvider bedrock)', lifecycleSource: LIFECYCLE, prices: { perSecond: { '540p': 0.75, '720p': 1.5 } }, priceSource: PRICING },
};

/** The Bedrock ids a stage calls for its ports on 'bedrock'. */
export function bedrockModelsFor(ports: { edit: boolean; upscale: boolean; video: boolean }): string[] {
  return [
    ...(ports.edit ? [DEFAULT_STABILITY_MODEL_IDS.searchReplace, DEFAULT_STABILITY_MODEL_IDS.searchRecolor, DEFAULT_STABILITY_MODEL_IDS.removeBackground] : []),
    ...(ports.upscale ? [DEFAULT_STABILITY_MODEL_IDS.fastUpscale] : []),
    ...(ports.video ? [LUMA_RAY2_MODEL_ID] : []),
  ];
}

export function bedrockPerImage(id: string): number {
  const prices = BEDROCK_MODELS[id]?.prices;
  if (!prices || !('perImage' in prices)) throw new Error(`No per-image price for Bedrock model '${id}' in lambdas/providers/bedrock/model-table.ts`);
  return prices.perImage;
}

export function lumaPerSecond(resolution: '540p' | '720p'): number {
  const prices = BEDROCK_MODELS[LUMA_RAY2_MODEL_ID]!.prices;
  if (!('perSecond' in prices)) throw new Error('Luma Ray2 has no per-second price in lambdas/providers/bedrock/model-table.ts');
  return prices.perSecond[resolution];
}
