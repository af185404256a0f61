// Every FASHN model (`model_name`) the adapters call, with what FASHN bills for it and the documents behind each, read
// on the dates given. Pure data: synth (lib/model-check.ts), the price list (../list-prices.ts), the product-to-model
// request (product-to-model.ts sends exactly the generation_mode priced here), the contract fake
// (test/support/fake-fashn.ts refuses any other model_name) and the model checks read it.
//
// FASHN bills in credits, bought at CREDIT_USD each. FASHN announces no shutdown dates and offers no call that lists its
// models (its utility endpoint is GET /v1/credits, the balance: https://docs.fashn.ai/utility-endpoints/credits), so
// the model checks can confirm the key and the balance, not each model (docs/providers.md).
import type { DatedDocument, ModelLifecycle } from '../model-lifecycle.js';

const read = (url: string, day: string, quote?: string): DatedDocument => ({ url, read: day, ...(quote ? { quote } : {}) });

export type FashnResolution = '1k' | '2k' | '4k';
export type FashnGenerationMode = 'fast' | 'balanced' | 'quality';

export type FashnModel = ModelLifecycle &
  (
    | {
        kind: 'image';
        /** The one generation_mode sent at each resolution, and its credits per output image. */
        credits: Record<FashnResolution, { mode: FashnGenerationMode; credits: number }>;
        /** Credits added per output image with face_reference. */
        faceReferenceCredits: number;
      }
    | {
        kind: 'video';
        /** Credits per 5 s clip, by resolution; a 10 s clip costs twice. */
        creditsPerFiveSeconds: Record<'480p' | '720p' | '1080p', number>;
      }
  );

/** FASHN API on-demand credits: USD per credit (fashn.ai pricing, read 2026-11-26, round 4). */
export const FASHN_CREDIT_USD = 0.075;
export const FASHN_CREDIT_SOURCE = read('https://fashn.ai/pricing', '2026-11-26');

const PRODUCT_TO_MODEL = 'https://docs.fashn.ai/api-reference/product-to-model';

/** The model names the adapters send (product-to-model.ts, fashn-video.ts). */
export const FASHN_PRODUCT_TO_MODEL = 'product-to-model';
export const FASHN_IMAGE_TO_VIDEO = 'image-to-video';

export const FASHN_MODELS = {
  'product-to-model': {
    kind: 'image',
    use: 'on-model photos (imageProvider fashn)',
    // FASHN publishes no release date: the day the official SDK first typed this model_name (fashn-AI/fashn-typescript-sdk,
    // src/resources/predictions.ts, commit of 2025-09-02). Lifecycle "preview" on the model page; no shutdown announced.
    released: '2025-09-02',
    lifecycleSource: read(PRODUCT_TO_MODEL, '2026-11-27', 'Model Name: product-to-model - Lifecycle: preview'),
    // "Credits: 1-5 per output image depending on resolution and generation_mode (+3 per output image with
    // face_reference)"; "omitted generation_mode is currently billed as 'fast' at 1k and as 'balanced' at 2k or 4k"
    // (the product-to-model page as issue 46 quotes it: a default 2K photo costs $0.225, 3 credits; a face-referenced
    // 4K one $0.525, 4 + 3). The adapter sends exactly these modes, so the bill is the table's, whatever FASHN's
    // defaults become; no other combination is priced here, so none is sent.
    credits: { '1k': { mode: 'fast', credits: 1 }, '2k': { mode: 'balanced', credits: 3 }, '4k': { mode: 'balanced', credits: 4 } },
    faceReferenceCredits: 3,
    priceSource: read(PRODUCT_TO_MODEL, '2026-11-27', 'Credits: 1-5 per output image depending on resolution and generation_mode (+3 per output image with face_reference)'),
  },
  'image-to-video': {
    kind: 'video',
    use: 'videos (videoProvider fashn)',
    // The official SDK first typed it in its commit of 2025-10-15.
    released: '2025-10-15',
    lifecycleSource: read('https://docs.fashn.ai/api-reference/image-to-video', '2026-11-26'),
    creditsPerFiveSeconds: { '480p': 1, '720p': 3, '1080p': 6 },
    priceSource: read('https://docs.fashn.ai/api-reference/image-to-video', '2026-11-26', 'Credits per clip: 480p 1, 720p 3, 1080p 6; 10 s doubles them'),
  },
} as const satisfies Record<string, FashnModel>;

export type FashnModelName = keyof typeof FASHN_MODELS;
export const FASHN_MODEL_TABLE: Readonly<Record<string, FashnModel>> = FASHN_MODELS;

/** What one product-to-model image costs in USD at this resolution, with or without a face reference. */
export function productToModelUsd(resolution: FashnResolution, faceReference: boolean): number {
  const model = FASHN_MODELS['product-to-model'];
  return (model.credits[resolution].credits + (faceReference ? model.faceReferenceCredits : 0)) * FASHN_CREDIT_USD;
}
