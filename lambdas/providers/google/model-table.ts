// Every Google model id the adapters may call, or were configured with before it was shut down: what it is for, its
// release and announced shutdown (with the replacement Google recommends), its prices, and the documents behind each,
// with the day they were read. Pure data: synth (lib/model-check.ts), the price list (../list-prices.ts), the contract
// fake (test/support/fake-google.ts serves exactly the ids this table lists as served), `npm run providers:check` and
// the daily model check read it.
//
// Documents, read on the dates given with each entry:
//   DEPRECATIONS  https://ai.google.dev/gemini-api/docs/deprecations: "This page lists the known deprecation schedules
//                 for stable (GA) and preview models ... Once a model is "shutdown", it is completely turned off, and
//                 the endpoint is no longer available." The shutdown dates are "the earliest possible dates".
//   PRICING       https://ai.google.dev/gemini-api/docs/pricing (Gemini Developer API, paid tier, standard).
//   OMNI          https://ai.google.dev/gemini-api/docs/omni ("Gemini Omni Flash (gemini-omni-1.1-flash) is a
//                 high-performance multimodal model designed for high-speed video generation, editing, and cinematic
//                 control") and the Gemini cookbook's "Generate and edit videos with Gemini Omni Flash 1.1"
//                 (google-gemini/cookbook, quickstarts/Get_started_Omni.ipynb).
import type { DatedDocument, ModelLifecycle } from '../model-lifecycle.js';

const DEPRECATIONS = 'https://ai.google.dev/gemini-api/docs/deprecations';
const PRICING = 'https://ai.google.dev/gemini-api/docs/pricing';
const read = (url: string, day: string, quote?: string): DatedDocument => ({ url, read: day, ...(quote ? { quote } : {}) });

/** Output resolutions of Gemini Omni's video (response_format.resolution: "360p" | "720p" | "1080p" | "4k"). */
export const OMNI_RESOLUTIONS = ['360p', '720p', '1080p', '4k'] as const;
export type OmniResolution = (typeof OMNI_RESOLUTIONS)[number];

export type GoogleModel = ModelLifecycle &
  (
    | { kind: 'image'; prices?: { perImage: Record<'1K' | '2K' | '4K', number> } }
    | { kind: 'text'; prices?: { perMillionInput: number; perMillionOutput: number } }
    | {
        kind: 'video';
        prices?: {
          /** USD per second of video delivered, by resolution. */
          perSecond: Record<OmniResolution, number>;
          /** Per clip: the two keyframes and the prompt as input tokens, and the model's planning (thinking) tokens. */
          perClipInputs: number;
        };
      }
  );

/**
 * Gemini Omni bills its video as output tokens: 5,792 tokens per second of 720p video at $17.50 per 1M output tokens
 * ($0.1014 a second). Google's pricing page itself could not be read for this table; the figures are the ones that
 * resellers quote from it, consistently: Runware's model page ("5792 per second of 720p video output (with audio)",
 * "Video Output: $17.50 / 1M tokens", "Input (text, image, video, audio): $1.50 / 1M tokens"; runware.ai/docs/models/
 * google-gemini-omni-flash, read 2026-11-27) and OpenMontage's gemini-omni skill ("billed as 5,792 output tokens/sec
 * at $17.50/1M"). The 1.1 release made 360p "a third of the cost of 720p" (Google's developer blog of 2026-08-27 as
 * WaveSpeedAI quotes it, wavespeed.ai/blog/ai-models/gemini-omni-1-1-flash-api, read 2026-11-27), and the resellers'
 * grids put 1080p at 1.5× and 4K at 3× the 720p rate (WaveSpeedAI: $0.03 / $0.10 / $0.15 / $0.30 a second).
 */
const OMNI_720P_PER_SECOND = (5792 * 17.5) / 1e6;
/**
 * Inputs per clip, an allowance: two 720×1280 keyframes and the prompt (Runware: "2040 tokens per image"; about 4,500
 * tokens at $1.50 / 1M, $0.007) and the model's planning before it renders (thought tokens at the text output rate,
 * $9 / 1M; 2,000 allowed, $0.018): $0.03 per clip, rounded up.
 */
const OMNI_INPUTS_PER_CLIP = 0.03;
const OMNI_PRICE_SOURCE = read(
  'https://runware.ai/docs/models/google-gemini-omni-flash',
  '2026-11-27',
  'For video output, Gemini Omni Flash charges 5792 per second of 720p video output (with audio) ... Video Output: $17.50 / 1M tokens',
);

const VEO_SHUTDOWN = read(
  'https://docs.apiyi.com/en/live/2026-10/veo-3-1-preview-retired.md',
  '2026-11-27',
  'Google shut down veo-3.1-generate-preview, veo-3.1-fast-generate-preview, and veo-3.1-lite-generate-preview on October 22, 2026. ... an underlying 404 containing is no longer available ... Google lists gemini-omni-1.1-flash as the replacement. Official notice: ai.google.dev/gemini-api/docs/deprecations.',
);

export const GOOGLE_MODELS = {
  // ——— Image: on-model photos and free-text edits ———
  'gemini-3.1-flash-image': {
    kind: 'image',
    use: 'on-model photos and free-text edits',
    released: '2026-05-28',
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3.1-flash-image | May 28, 2026 | No shutdown date announced'),
    // The GA ids kept the preview models' prices (release notes, 2026-05-28), per output image by imageSize.
    prices: { perImage: { '1K': 0.067, '2K': 0.101, '4K': 0.151 } },
    priceSource: read(PRICING, '2026-11-26'),
  },
  'gemini-3-pro-image': {
    kind: 'image',
    use: 'on-model photos and free-text edits at up to 4K (googleImageMaxSize 4K)',
    released: '2026-05-28',
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3-pro-image | May 28, 2026 | No shutdown date announced'),
    prices: { perImage: { '1K': 0.134, '2K': 0.134, '4K': 0.24 } },
    priceSource: read(PRICING, '2026-11-26'),
  },
  'gemini-3.1-flash-image-preview': {
    kind: 'image',
    use: 'on-model photos (until its shutdown)',
    released: '2026-02-26',
    shutdown: { date: '2026-06-25', replacement: 'gemini-3.1-flash-image' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3.1-flash-image-preview | February 26, 2026 | June 25, 2026 | gemini-3.1-flash-image'),
  },
  'gemini-3-pro-image-preview': {
    kind: 'image',
    use: 'on-model photos (until its shutdown)',
    released: '2025-11-20',
    shutdown: { date: '2026-06-25', replacement: 'gemini-3-pro-image' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3-pro-image-preview | November 20, 2025 | June 25, 2026 | gemini-3-pro-image'),
  },
  'gemini-2.5-flash-image': {
    kind: 'image',
    use: 'on-model photos (until its shutdown)',
    released: '2025-10-02',
    shutdown: { date: '2026-10-02', replacement: 'gemini-3.1-flash-image' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-2.5-flash-image | October 2, 2025 | October 2, 2026'),
  },

  // ——— Text: the enrichment of a model description (promptEnhance) ———
  'gemini-3.5-flash-lite': {
    kind: 'text',
    use: 'enriching model descriptions (promptEnhance)',
    released: '2026-07-21',
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3.5-flash-lite | July 21, 2026 | No shutdown date announced'),
    prices: { perMillionInput: 0.3, perMillionOutput: 2.5 },
    priceSource: read(PRICING, '2026-10-07', 'Gemini 3.5 Flash-Lite: input $0.30 (text / image / video / audio), output $2.50 (the page as transcribed by api-evangelist/deepmind, plans/deepmind-plans-pricing.yml, read 2026-11-27)'),
  },
  'gemini-3.1-flash-lite': {
    kind: 'text',
    use: 'enriching model descriptions (promptEnhance)',
    released: '2026-05-07',
    shutdown: { date: '2027-05-07', replacement: 'gemini-3.5-flash-lite' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-3.1-flash-lite | May 7, 2026 | May 7, 2027'),
    prices: { perMillionInput: 0.25, perMillionOutput: 1.5 },
    priceSource: read('https://vercel.com/ai-gateway/models/gemini-3.1-flash-lite', '2026-11-27', 'Pricing: $0.25/1M input tokens, $1.50/1M output tokens'),
  },
  // "we are limiting access to the 2.5 models to users who have actively used them in the past ... For any new
  // projects, use" a 3.x Flash-Lite (the deprecations page as issue 46 quotes it); its listed shutdown is July 22, 2026.
  'gemini-2.5-flash-lite': {
    kind: 'text',
    use: 'enriching model descriptions (until its shutdown)',
    released: '2025-07-22',
    shutdown: { date: '2026-07-22', replacement: 'gemini-3.5-flash-lite' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-2.5-flash-lite | July 22, 2025 | July 22, 2026'),
  },

  // ——— Video: looping product videos ———
  'gemini-omni-1.1-flash': {
    kind: 'video',
    use: 'looping product videos (Interactions API, first and last frame keyframes)',
    released: '2026-08-27',
    lifecycleSource: read('https://ai.google.dev/gemini-api/docs/omni', '2026-11-27', 'Gemini Omni Flash (gemini-omni-1.1-flash) is a high-performance multimodal model designed for high-speed video generation, editing, and cinematic control.'),
    prices: {
      perSecond: { '360p': OMNI_720P_PER_SECOND / 3, '720p': OMNI_720P_PER_SECOND, '1080p': OMNI_720P_PER_SECOND * 1.5, '4k': OMNI_720P_PER_SECOND * 3 },
      perClipInputs: OMNI_INPUTS_PER_CLIP,
    },
    priceSource: OMNI_PRICE_SOURCE,
  },
  'gemini-omni-flash-preview': {
    kind: 'video',
    use: 'videos (until its shutdown)',
    released: '2026-06-30',
    shutdown: { date: '2026-09-30', replacement: 'gemini-omni-1.1-flash' },
    lifecycleSource: read(DEPRECATIONS, '2026-11-27', 'gemini-omni-flash-preview | 30 Sept 2026 | gemini-omni-1.1-flash'),
  },
  // Veo 3.1 launched on 2025-10-15 (the Gemini API's and its partners' release notes of that day); shut down on
  // 2026-10-22 (VEO_SHUTDOWN), after which calls answer 404 "is no longer available".
  'veo-3.1-fast-generate-preview': {
    kind: 'video',
    use: 'videos (until its shutdown)',
    released: '2025-10-15',
    shutdown: { date: '2026-10-22', replacement: 'gemini-omni-1.1-flash' },
    lifecycleSource: VEO_SHUTDOWN,
  },
  'veo-3.1-generate-preview': {
    kind: 'video',
    use: 'videos (until its shutdown)',
    released: '2025-10-15',
    shutdown: { date: '2026-10-22', replacement: 'gemini-omni-1.1-flash' },
    lifecycleSource: VEO_SHUTDOWN,
  },
} as const satisfies Record<string, GoogleModel>;

export type GoogleModelId = keyof typeof GOOGLE_MODELS;

/** The table as a lookup by any string (a configured id may be anything). */
export const GOOGLE_MODEL_TABLE: Readonly<Record<string, GoogleModel>> = GOOGLE_MODELS;
