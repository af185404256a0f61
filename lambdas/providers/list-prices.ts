// Each provider's list price per operation, in USD, and what one sale of each pricing tier costs the operator with a
// given provider selection. One module, read by synth (the margin check, lib/pricing.ts), by `bench/cost.ts` and by
// `npm run providers:check`. Prices are public list prices as published in November 2026, stated with their source
// and NOT fetched: check them before relying on the figures.
import { FACE_REFERENCE_TIER, IMAGE_SIZES, PRICING_TIER_SEED, UPSCALE_RESOLUTIONS, VIDEO_DURATIONS, VIDEO_TIERS, type PricingTierId } from '../contracts/catalog.js';
import { LUMA_RESOLUTION, planClips as lumaPlanClips, plannedSeconds } from './bedrock/luma-request.js';
import { GEMINI_IMAGE_MODELS, GEMINI_IMAGE_SIZES, GOOGLE_DEFAULTS, RETIRED_GOOGLE_MODELS, imageModelSizes, type GeminiImageSize } from './google/models.js';
import { planFashnClips } from './fashn/fashn-video.js';
import { veoBilledSeconds } from './google/veo-video.js';

export const LIST_PRICES = {
  geminiImage: {
    /**
     * Per image, by imageSize (output tokens at the model's rate). The GA ids kept the preview models' prices
     * (release notes, 2026-05-28); every id of GEMINI_IMAGE_MODELS (google/models.ts) has a row here.
     */
    'gemini-3.1-flash-image': { '1K': 0.067, '2K': 0.101, '4K': 0.151 },
    'gemini-3-pro-image': { '1K': 0.134, '2K': 0.134, '4K': 0.24 },
    source: 'ai.google.dev/gemini-api/docs/pricing (Gemini Developer API, paid tier, standard, per output image)',
  },
  /** The description enrichment of promptEnhance: about 300 input and 100 output tokens of the text model, no thinking. */
  geminiTextEnrichment: { usd: 0.0001, source: 'ai.google.dev/gemini-api/docs/pricing (gemini-2.5-flash-lite: $0.10 / 1M input, $0.40 / 1M output tokens)' },
  veoPerSecond: {
    'veo-3.1-fast-generate-preview': 0.1,
    'veo-3.1-generate-preview': 0.4,
    source: 'ai.google.dev/gemini-api/docs/pricing, October 2026 (Veo 3.1 Fast $0.10 and Veo 3.1 $0.40 per second at 720p, audio included: the Gemini API always makes it)',
  },
  /**
   * The studio's own ESRGAN upscale in the generation workflow's Upscale function: Lambda compute only, no provider.
   * The dearest case, a 2K → 4K enlargement: ESRGAN on onnxruntime takes 9.5 s (median, bench/upscale.ts, 2 cores;
   * it took about 300 s on tfjs before November 2026), priced at three times that, 30 s, for a cold start and a slower
   * core, at 3,008 MB: 2.9375 GB × 30 s × $0.0000166667 per GB-second.
   */
  esrganUpscaleLambda: { usd: 0.0015, source: 'aws.amazon.com/lambda/pricing ($0.0000166667 per GB-second, x86, first tier), 3,008 MB for 30 s' },
  fashnPerImage: { usd: 0.075, source: 'FASHN API on-demand credits: 1 credit per product-to-model image (fashn.ai pricing)' },
  fashnFaceReferencePerImage: {
    usd: 0.3,
    source: 'FASHN API on-demand credits: 4 credits per product-to-model image with face_reference (docs.fashn.ai/api-reference/product-to-model)',
  },
  fashnVideoPerFiveSeconds: { usd: 0.225, source: 'FASHN API on-demand credits: image-to-video at 720p, 3 credits per 5 s of video (fashn.ai pricing)' },
  stabilityEdit: { usd: 0.07, source: 'Amazon Bedrock, Stability Image Services (search and replace / recolor / remove background), per image' },
  stabilityFastUpscale: { usd: 0.03, source: 'Amazon Bedrock, Stability Fast Upscale, per image' },
  lumaRay2PerSecond: { '540p': 0.75, '720p': 1.5, source: 'Amazon Bedrock, Luma Ray2, per second of video generated' },
} as const;

const PRICE_LIST = 'lambdas/providers/list-prices.ts';

/** A model id the price list has no row for: refused (synth, bench), naming the list and, when retired, its successor. */
function unknownModel(kind: 'image' | 'video', id: string, known: readonly string[]): never {
  const key = kind === 'image' ? 'googleImageModel' : 'googleVideoModel';
  const successor = RETIRED_GOOGLE_MODELS[id];
  throw new Error(
    successor
      ? `Context ${key} '${id}': Google has shut this model down; use '${successor}'`
      : `Context ${key} '${id}' has no list price in ${PRICE_LIST} (priced: ${known.join(', ')}): choose one of those, ` +
          `or add its price there${kind === 'image' ? ' and its sizes to GEMINI_IMAGE_MODELS in lambdas/providers/google/models.ts' : ''}`,
  );
}

/** Per-image prices of a Gemini image model; refuses an id the list does not price. */
export function geminiImagePrices(modelId: string): Record<GeminiImageSize, number> {
  const table = LIST_PRICES.geminiImage as unknown as Record<string, Record<GeminiImageSize, number> | string | undefined>;
  const prices = table[modelId];
  const known = Object.keys(GEMINI_IMAGE_MODELS);
  if (typeof prices !== 'object' || !known.includes(modelId)) unknownModel('image', modelId, known);
  return prices;
}

/** Per-second price of a Veo model; refuses an id the list does not price. */
export function veoPricePerSecond(modelId: string): number {
  const table = LIST_PRICES.veoPerSecond as unknown as Record<string, number | string | undefined>;
  const price = table[modelId];
  if (typeof price !== 'number') unknownModel('video', modelId, Object.keys(table).filter((key) => key !== 'source'));
  return price;
}

/** What a stage's providers are, as far as prices go (lib/config.ts gives the same fields). */
export interface PriceSelection {
  providers: { image: string; edit: string; upscale: string; video: string };
  google?: { imageModel: string; imageMaxSize: GeminiImageSize; videoModel: string };
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
  if (selection.providers.upscale === 'bedrock') return { usd: LIST_PRICES.stabilityFastUpscale.usd, basis: 'bedrock:stability fast upscale' };
  if (selection.providers.upscale === 'local') return { usd: LIST_PRICES.esrganUpscaleLambda.usd, basis: 'local:esrgan in Lambda (compute)' };
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

function onModelCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.image === 'google') {
    const image = geminiImageCost(selection, LARGEST_IMAGE);
    return { usd: image.usd + LIST_PRICES.geminiTextEnrichment.usd, basis: `${image.basis} (+ promptEnhance), ${LARGEST_IMAGE} px order` };
  }
  if (selection.providers.image === 'fashn') return { usd: LIST_PRICES.fashnPerImage.usd, basis: 'fashn:product-to-model' };
  if (selection.providers.image === 'local') return { usd: 0, basis: 'local engine' };
  return unpriced('image', selection.providers.image);
}

/**
 * An on-model photo with a saved model's portrait. FASHN bills face_reference at 4× its image; Gemini takes the
 * portrait as one more input image (a few hundred input tokens, well under a cent), and the local engine ignores it:
 * there the face-reference tier is not sold, and its figure is the ordinary photo's.
 */
function faceReferenceCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.image === 'fashn') return { usd: LIST_PRICES.fashnFaceReferencePerImage.usd, basis: 'fashn:product-to-model with face_reference' };
  const photo = onModelCost(selection);
  return { usd: photo.usd, basis: `${photo.basis} (tier not sold: the portrait costs nothing extra)` };
}

function editCost(selection: PriceSelection): { usd: number; basis: string } {
  if (selection.providers.edit === 'google') {
    const image = geminiImageCost(selection, LARGEST_IMAGE);
    return { usd: image.usd, basis: `${image.basis}, ${LARGEST_IMAGE} px photo` };
  }
  if (selection.providers.edit === 'bedrock') return { usd: LIST_PRICES.stabilityEdit.usd, basis: 'bedrock:stability edit' };
  if (selection.providers.edit === 'local') return { usd: 0, basis: 'local engine' };
  return unpriced('edit', selection.providers.edit);
}

function videoCost(selection: PriceSelection, duration: number): { usd: number; basis: string } {
  if (selection.providers.video === 'google') {
    const model = googleOf(selection).videoModel;
    // The dearest plan the adapter may fall back to (a 5 s video may need an 8 s clip: google/veo-video.ts).
    const seconds = veoBilledSeconds(duration);
    return { usd: seconds * veoPricePerSecond(model), basis: `google:${model}, ${seconds} s of video` };
  }
  if (selection.providers.video === 'bedrock') {
    const seconds = plannedSeconds(lumaPlanClips(duration));
    return { usd: seconds * LIST_PRICES.lumaRay2PerSecond[LUMA_RESOLUTION], basis: `bedrock:luma.ray-v2:0 ${LUMA_RESOLUTION}, ${seconds} s of video` };
  }
  if (selection.providers.video === 'fashn') {
    const seconds = planFashnClips(duration).reduce((total, clip) => total + clip.seconds, 0);
    return { usd: (seconds / 5) * LIST_PRICES.fashnVideoPerFiveSeconds.usd, basis: `fashn:image-to-video 720p, ${seconds} s of video` };
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
