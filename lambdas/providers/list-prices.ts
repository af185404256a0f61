// What one sale of each pricing tier costs the operator with a given provider selection, from the providers' dated
// model tables (google/model-table.ts, fashn/model-table.ts, bedrock/model-table.ts: each price with its document and
// the day it was read). One module, read by synth (the margin check, lib/pricing.ts), by `bench/cost.ts` and by
// `npm run providers:check`. Prices are stated, NOT fetched: check them before relying on the figures.
import { FACE_REFERENCE_TIER, IMAGE_SIZES, PRICING_TIER_SEED, UPSCALE_RESOLUTIONS, VIDEO_DURATIONS, VIDEO_TIERS, type PricingTierId } from '../contracts/catalog.js';
import { LUMA_RESOLUTION, planClips as lumaPlanClips, plannedSeconds } from './bedrock/luma-request.js';
import { bedrockPerImage, lumaPerSecond } from './bedrock/model-table.js';
import { DEFAULT_STABILITY_MODEL_IDS } from './bedrock/stability-models.js';
import { planFashnClips, FASHN_VIDEO_RESOLUTION } from './fashn/fashn-video.js';
import { FASHN_CREDIT_USD, FASHN_MODELS, productToModelUsd } from './fashn/model-table.js';
import { resolutionFor } from './fashn/product-to-model.js';
import { GEMINI_IMAGE_SIZES, GOOGLE_DEFAULTS, imageModelSizes, type GeminiImageSize } from './google/models.js';
import { GOOGLE_MODEL_TABLE, type GoogleModel, type OmniResolution } from './google/model-table.js';
import { planOmniClips } from './google/omni-plan.js';

/**
 * The studio's own ESRGAN upscale in the generation workflow's Upscale function: Lambda compute only, no provider.
 * The dearest case, a 2K → 4K enlargement: ESRGAN on onnxruntime takes 9.5 s (median, bench/upscale.ts, 2 cores),
 * priced at three times that, 30 s, for a cold start and a slower core, at 3,008 MB: 2.9375 GB × 30 s ×
 * $0.0000166667 per GB-second (aws.amazon.com/lambda/pricing, x86, first tier).
 */
export const ESRGAN_UPSCALE_LAMBDA_USD = 0.0015;

/**
 * The description enrichment of promptEnhance: about 300 input and 100 output tokens of the text model, thinking off,
 * at the text model's prices (google/model-table.ts).
 */
export const ENRICHMENT_TOKENS = { input: 300, output: 100 } as const;

/** A Google id's row, of the kind asked for and priced; refuses (synth, bench) an id the table does not price. */
function googleRow<K extends GoogleModel['kind']>(id: string, kind: K, setting: string): Extract<GoogleModel, { kind: K }> & { prices: NonNullable<Extract<GoogleModel, { kind: K }>['prices']> } {
  const row = GOOGLE_MODEL_TABLE[id];
  if (!row || row.kind !== kind || !row.prices) {
    const priced = Object.entries(GOOGLE_MODEL_TABLE)
      .filter(([, candidate]) => candidate.kind === kind && candidate.prices && !candidate.shutdown)
      .map(([candidate]) => candidate);
    const replacement = row?.shutdown?.replacement;
    throw new Error(
      replacement
        ? `Context ${setting} '${id}': Google shuts this model down on ${row.shutdown!.date}; use '${replacement}'`
        : `Context ${setting} '${id}' has no ${kind} price in lambdas/providers/google/model-table.ts (priced: ${priced.join(', ')})`,
    );
  }
  return row as never;
}

/** Per-image prices of a Gemini image model; refuses an id the table does not price. */
export function geminiImagePrices(modelId: string): Record<GeminiImageSize, number> {
  return googleRow(modelId, 'image', 'googleImageModel').prices.perImage;
}

/** What one enrichment costs on this text model. */
export function enrichmentUsd(modelId: string): number {
  const { prices } = googleRow(modelId, 'text', 'googleTextModel');
  return (ENRICHMENT_TOKENS.input * prices.perMillionInput + ENRICHMENT_TOKENS.output * prices.perMillionOutput) / 1e6;
}

/** What a video of `durationSeconds` costs on this video model: seconds delivered at the resolution, and each clip's inputs. */
export function omniVideoUsd(modelId: string, resolution: OmniResolution, durationSeconds: number): { usd: number; seconds: number; clips: number } {
  const { prices } = googleRow(modelId, 'video', 'googleVideoModel');
  const clips = planOmniClips(durationSeconds);
  const seconds = clips.reduce((total, clip) => total + clip.seconds, 0);
  return { usd: seconds * prices.perSecond[resolution] + clips.length * prices.perClipInputs, seconds, clips: clips.length };
}

/** What a stage's providers are, as far as prices go (lib/config.ts gives the same fields). */
export interface PriceSelection {
  providers: { image: string; edit: string; upscale: string; video: string };
  google?: { imageModel: string; imageMaxSize: GeminiImageSize; textModel?: string; videoModel: string; videoResolution?: OmniResolution };
}

export interface OperationCost {
  tier: PricingTierId;
  /** USD per sale of the tier (per output for a video), at the dearest order the tier covers. */
  usd: number;
  /** Which provider and model, and what the figure counts. */
  basis: string;
}

const googleOf = (selection: PriceSelection) => ({ ...GOOGLE_DEFAULTS, ...selection.google });
const round4 = (usd: number) => Math.round(usd * 10_000) / 10_000;

/** An adapter this module has no price for: synth must not guess that it is free. */
function unpriced(port: string, adapter: string): never {
  throw new Error(`No list price for the ${port} port on '${adapter}': add it to lambdas/providers/list-prices.ts`);
}

function upscaleCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.upscale === 'bedrock') return { usd: bedrockPerImage(DEFAULT_STABILITY_MODEL_IDS.fastUpscale), basis: 'bedrock:stability fast upscale' };
  if (selection.providers.upscale === 'local') return { usd: ESRGAN_UPSCALE_LAMBDA_USD, basis: 'local:esrgan in Lambda (compute)' };
  return unpriced('upscale', selection.providers.upscale);
}

/** A Gemini image of at least `longSide` px: the size asked for, and the upscale when the allowed sizes fall short. */
function geminiImageCost(selection: PriceSelection, longSide: number): { usd: number; basis: string } {
  const google = googleOf(selection);
  const limit = GEMINI_IMAGE_SIZES.findIndex((size) => size.name === google.imageMaxSize);
  const allowed = GEMINI_IMAGE_SIZES.filter((size, index) => index <= limit && imageModelSizes(google.imageModel).includes(size.name));
  const size = allowed.find((candidate) => candidate.longSide >= longSide) ?? allowed[allowed.length - 1] ?? GEMINI_IMAGE_SIZES[0];
  const usd = geminiImagePrices(google.imageModel)[size.name];
  const basis = `google:${google.imageModel} ${size.name}`;
  if (size.longSide >= longSide) return { usd, basis };
  const upscale = upscaleCost(selection);
  return { usd: usd + upscale.usd, basis: `${basis} + ${upscale.basis}` };
}

const LARGEST_IMAGE = Math.max(...Object.values(IMAGE_SIZES).map((size) => Math.max(size.width, size.height)));
/** FASHN's resolution for the largest order (product-to-model.ts asks for the smallest that covers the order). */
const LARGEST_FASHN_RESOLUTION = resolutionFor({ width: LARGEST_IMAGE, height: LARGEST_IMAGE });

function onModelCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.image === 'google') {
    const google = googleOf(selection);
    const image = geminiImageCost(selection, LARGEST_IMAGE);
    return { usd: image.usd + enrichmentUsd(google.textModel), basis: `${image.basis} (+ promptEnhance on ${google.textModel}), ${LARGEST_IMAGE} px order` };
  }
  if (selection.providers.image === 'fashn') {
    const mode = FASHN_MODELS['product-to-model'].credits[LARGEST_FASHN_RESOLUTION].mode;
    return { usd: productToModelUsd(LARGEST_FASHN_RESOLUTION, false), basis: `fashn:product-to-model ${LARGEST_FASHN_RESOLUTION} ${mode}, ${LARGEST_IMAGE} px order` };
  }
  if (selection.providers.image === 'local') return { usd: 0, basis: 'local engine' };
  return unpriced('image', selection.providers.image);
}

/**
 * An on-model photo with a saved model's portrait. FASHN adds 3 credits per image with face_reference; Gemini takes the
 * portrait as one more input image (a few hundred input tokens, well under a cent), and the local engine ignores it:
 * there the face-reference tier is not sold, and its figure is the ordinary photo's.
 */
function faceReferenceCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.image === 'fashn') {
    const mode = FASHN_MODELS['product-to-model'].credits[LARGEST_FASHN_RESOLUTION].mode;
    return { usd: productToModelUsd(LARGEST_FASHN_RESOLUTION, true), basis: `fashn:product-to-model ${LARGEST_FASHN_RESOLUTION} ${mode} with face_reference` };
  }
  const photo = onModelCost(selection);
  return { usd: photo.usd, basis: `${photo.basis} (tier not sold: the portrait costs nothing extra)` };
}

function editCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.edit === 'google') {
    const image = geminiImageCost(selection, LARGEST_IMAGE);
    return { usd: image.usd, basis: `${image.basis}, ${LARGEST_IMAGE} px photo` };
  }
  if (selection.providers.edit === 'bedrock') return { usd: bedrockPerImage(DEFAULT_STABILITY_MODEL_IDS.searchReplace), basis: 'bedrock:stability edit' };
  if (selection.providers.edit === 'local') return { usd: 0, basis: 'local engine' };
  return unpriced('edit', selection.providers.edit);
}

function videoCost(selection: PriceSelection, duration: number): { usd: number; basis: string } {
  if (selection.providers.video === 'google') {
    const google = googleOf(selection);
    const video = omniVideoUsd(google.videoModel, google.videoResolution, duration);
    return { usd: video.usd, basis: `google:${google.videoModel} ${google.videoResolution}, ${video.seconds} s delivered in ${video.clips} clip${video.clips > 1 ? 's' : ''}` };
  }
  if (selection.providers.video === 'bedrock') {
    const seconds = plannedSeconds(lumaPlanClips(duration));
    return { usd: seconds * lumaPerSecond(LUMA_RESOLUTION), basis: `bedrock:luma.ray-v2:0 ${LUMA_RESOLUTION}, ${seconds} s of video` };
  }
  if (selection.providers.video === 'fashn') {
    const seconds = planFashnClips(duration).reduce((total, clip) => total + clip.seconds, 0);
    const credits = (seconds / 5) * FASHN_MODELS['image-to-video'].creditsPerFiveSeconds[FASHN_VIDEO_RESOLUTION];
    return { usd: credits * FASHN_CREDIT_USD, basis: `fashn:image-to-video ${FASHN_VIDEO_RESOLUTION}, ${seconds} s of video` };
  }
  if (selection.providers.video === 'local') return { usd: 0, basis: 'local engine' };
  return unpriced('video', selection.providers.video);
}

/** What one sale of every pricing tier costs the operator with these providers (list prices). */
export function operationCosts(selection: PriceSelection): OperationCost[] {
  const costs = new Map<PricingTierId, { usd: number; basis: string }>();
  costs.set('image-generation', onModelCost(selection));
  costs.set('batch-photo', onModelCost(selection));
  costs.set(FACE_REFERENCE_TIER, faceReferenceCost(selection));
  costs.set('image-edit', editCost(selection));
  // No provider: the packshot engine runs in the studio's own Lambda on every deployment.
  costs.set('packshot', { usd: 0, basis: 'packshot engine (in Lambda)' });
  for (const resolution of Object.values(UPSCALE_RESOLUTIONS)) costs.set(resolution.tier, upscaleCost(selection));
  for (const duration of VIDEO_DURATIONS) costs.set(VIDEO_TIERS[duration], videoCost(selection, duration));
  return PRICING_TIER_SEED.map((tier) => {
    const cost = costs.get(tier.id) ?? { usd: 0, basis: 'no provider' };
    return { tier: tier.id, usd: round4(cost.usd), basis: cost.basis };
  });
}
