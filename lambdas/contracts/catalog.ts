// The business constants (credits, costs, sizes, limits), shared by the server and the web app.
import { USD_PER_CREDIT, VIDEO_TIERS, type VideoDuration } from './landing.js';

// What the landing page reads lives in ./landing.ts, so the landing page's first load holds only that.
export { LANDING_PACKS, packAllowance, USD_PER_CREDIT, VIDEO_PROGRESS_FULL_SECONDS, VIDEO_TIERS } from './landing.js';

export const SIGNUP_CREDITS = 5;
export const DEFAULT_PLAN_ID = 'free_trial';

/** Credit packages of the billing screen: credits for USD. */
export const BILLING_PACKAGES = [
  { credits: 170, usd: 17, popular: false },
  { credits: 2500, usd: 250, popular: false },
  { credits: 5000, usd: 500, popular: true },
  { credits: 7500, usd: 750, popular: false },
  { credits: 10000, usd: 1000, popular: false },
] as const;
export const DEFAULT_PACKAGE_CREDITS = 170;
export const MIN_CUSTOM_CREDITS = 1;
/** The largest single purchase the API accepts; far above any package, it only stops absurd amounts. */
export const MAX_PURCHASE_CREDITS = 100_000;

/** Price of a number of credits in USD, rounded to cents. */
export function priceUsd(credits: number): number {
  return Math.round(credits * USD_PER_CREDIT * 100) / 100;
}



/** Seed of the pricing tiers table: the costs the server charges. */
export const PRICING_TIER_SEED = [
  { id: 'image-generation', feature_type: 'image', display_name: 'Image generation', description: 'One on-model photo from a product image', credits_cost: 1, sort_order: 1 },
  { id: 'image-edit', feature_type: 'edit', display_name: 'Image edit', description: 'One edit of an image by instruction', credits_cost: 1, sort_order: 1 },
  { id: 'upscale-2k', feature_type: 'upscale', display_name: 'Upscale to 2K', description: '1440×2560', credits_cost: 1, sort_order: 1 },
  { id: 'upscale-4k', feature_type: 'upscale', display_name: 'Upscale to 4K', description: '2880×5120', credits_cost: 2, sort_order: 2 },
  { id: 'upscale-8k', feature_type: 'upscale', display_name: 'Upscale to 8K', description: '5760×10240', credits_cost: 3, sort_order: 3 },
  { id: 'video-5s', feature_type: 'video', display_name: 'Video, 5 s', description: 'One looping 5 s video per output', credits_cost: 1, sort_order: 1 },
  { id: 'video-8s', feature_type: 'video', display_name: 'Video, 8 s', description: 'One looping 8 s video per output', credits_cost: 1, sort_order: 2 },
  { id: 'video-16s', feature_type: 'video', display_name: 'Video, 16 s', description: 'One looping 16 s video per output', credits_cost: 1, sort_order: 3 },
  { id: 'packshot', feature_type: 'packshot', display_name: 'Packshot', description: 'One product photo cut out onto a marketplace-ready ground', credits_cost: 1, sort_order: 1 },
  { id: 'batch-photo', feature_type: 'batch', display_name: 'Batch photo', description: 'One photo per camera angle', credits_cost: 1, sort_order: 1 },
  {
    id: 'face-reference-photo',
    feature_type: 'image',
    display_name: "Photo with a saved model's face",
    description: "One on-model photo (Image Generation or a batch photo) that keeps a saved model's reference portrait",
    credits_cost: 4,
    sort_order: 2,
  },
] as const;
export type PricingTierId = (typeof PRICING_TIER_SEED)[number]['id'];

/**
 * The tier of an on-model photo made with a saved model's reference portrait, where the on-model provider charges
 * more for it (FASHN bills face_reference at 4 credits per image instead of 1). It is active only on a deployment whose
 * on-model provider is one of FACE_REFERENCE_PROVIDERS; elsewhere the portrait costs nothing extra and such a photo
 * is charged the normal image or batch photo tier.
 */
export const FACE_REFERENCE_TIER = 'face-reference-photo' satisfies PricingTierId;
export const FACE_REFERENCE_PROVIDERS: readonly string[] = ['fashn'];
export const faceReferenceTierApplies = (imageProvider: string): boolean => FACE_REFERENCE_PROVIDERS.includes(imageProvider);

/** Image sizes of image generation (portrait 9:16). */
export const IMAGE_SIZES = {
  '1k': { width: 720, height: 1280 },
  '2k': { width: 1440, height: 2560 },
  '4k': { width: 2880, height: 5120 },
} as const;
export const DEFAULT_IMAGE_SIZE = '2k';

/** Upscale targets, each with its pricing tier. */
export const UPSCALE_RESOLUTIONS = {
  '2k': { width: 1440, height: 2560, tier: 'upscale-2k' },
  '4k': { width: 2880, height: 5120, tier: 'upscale-4k' },
  '8k': { width: 5760, height: 10240, tier: 'upscale-8k' },
} as const;
export const DEFAULT_UPSCALE_RESOLUTION = '2k';

export const PRODUCT_TYPES = ['clothing', 'jewelry'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const CAMERA_ZOOMS = ['auto', 'full-body', 'mid-shot', 'close-up'] as const;

export const VIDEO_DURATIONS = [5, 8, 16] as const satisfies readonly VideoDuration[];
export const DEFAULT_VIDEO_DURATION = 8;
export const VIDEO_ASPECT_RATIOS = ['9:16', '1:1', '16:9'] as const;
export const DEFAULT_VIDEO_ASPECT_RATIO = '9:16';
export const VIDEO_OUTPUT_COUNTS = [1, 3, 5] as const;
export const VIDEO_SIZES = {
  '9:16': { width: 720, height: 1280 },
  '1:1': { width: 720, height: 720 },
  '16:9': { width: 1280, height: 720 },
} as const;
export const videoTier = (duration: number): PricingTierId => VIDEO_TIERS[duration as VideoDuration] ?? 'video-16s';
export const MOTION_PRESETS = ['Pivot', 'Catwalk', '360 Spin'] as const;
export const VIDEO_POLL_INTERVAL_MS = 10_000;
export const VIDEO_POLL_MAX_ATTEMPTS = 120;

export const BATCH_CAMERA_ANGLES = ['Product', 'Front', 'Back', 'Full Body', 'Mid-shot', 'Side'] as const;
/** The batch shot that is no camera angle: the entry's product as a listing-ready packshot of its marketplace preset. */
export const BATCH_PACKSHOT_SHOT = 'Packshot';
/** What a batch entry can ask for, one photo each: the camera angles of an on-model photo, and the packshot. */
export const BATCH_SHOTS = [...BATCH_CAMERA_ANGLES, BATCH_PACKSHOT_SHOT] as const;
export const BATCH_DEFAULT_PROMPT = 'young female model';
export const BATCH_DEFAULT_BACKDROP = 'white';

export const MB = 1024 * 1024;
export const CLOTHING_MAX_BYTES = 12 * MB;
export const CLOTHING_BATCH_MAX_FILES = 3;
export const CLOTHING_NAME_MAX_LENGTH = 120;
export const CLOTHING_DESCRIPTION_MAX_LENGTH = 2000;
/** How long a presigned upload URL stays valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;
export const GENERATION_UPLOAD_MAX_BYTES = 10 * MB;
export const VIDEO_SOURCE_MAX_BYTES = 6 * MB;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const SIGNED_URL_SECONDS = 3600;
export const HISTORY_LIMIT = 100;
export const PICKER_HISTORY_LIMIT = 20;
export const SHORT_LIST_LIMIT = 10;

/**
 * Per-user limits, enforced by the server (429 with Retry-After beyond them). A rate is a number of requests per
 * window: 100 spending requests per 10 s is 10 a second on average, with bursts of up to 100 (a shop pushing its
 * catalogue). Running work is counted from the records still in progress. The cloud can override any figure with
 * the CDK context `userLimits` (passed to the functions as USER_LIMITS).
 */
export const USER_LIMITS = {
  rates: {
    /** Every request to a route that spends credits. */
    spending: { limit: 100, windowSeconds: 10 },
    /** Imports from a product link. */
    imports: { limit: 30, windowSeconds: 60 },
    /** Selections of an imported image: each downloads, decodes and stores one. */
    importSelections: { limit: 30, windowSeconds: 60 },
    /** Every request made with one API key. */
    apiKey: { limit: 20, windowSeconds: 2 },
    /**
     * Demo requests from the public contact form, per e-mail address given, and from everyone together: each one is
     * mailed, and a visitor has no account to count by (behind CloudFront every request comes from an edge address).
     */
    contactRequests: { limit: 3, windowSeconds: 3600 },
    allContactRequests: { limit: 100, windowSeconds: 3600 },
    /** Support tickets: each is a mail to the support team, so a person's pace, not a script's. */
    supportTickets: { limit: 3, windowSeconds: 60 },
    /** "Download my data": each copies up to 1 GB of files into a new zip; one runs at a time (EXPORT_LEASE_SECONDS). */
    exports: { limit: 5, windowSeconds: 86_400 },
  },
  running: {
    video: 5,
    // Images take seconds, and the spending rate already bounds a burst: the cap is there for a runaway client.
    image: 100,
    batch: 3,
  },
} as const;
export type RateLimitName = keyof typeof USER_LIMITS.rates;
export type RunningLimitName = keyof typeof USER_LIMITS.running;

/**
 * Why a provider refused a request or could not take it, as the user reads it (the adapters' ProviderError messages;
 * a provider's own text never reaches a user). A refusal names what was refused, so the seller knows what to change.
 */
export const PROVIDER_MESSAGES = {
  contentPolicy: 'Content Policy Violation: the image was rejected by the content filters. Please use an image without recognizable people.',
  recitation:
    'Content Policy Violation: the result was too close to existing protected material (a logo, artwork or text it may not copy), so the AI service withheld it. Please try another photo or description.',
  personalData:
    'Content Policy Violation: the result would have shown personal information (names, numbers, addresses), so the AI service withheld it. Please remove personal details from the photo and description.',
  accountNotPaid:
    "The studio's AI service cannot take this request: its provider account has no paid access (billing is not enabled). Your credits were refunded. Please contact support.",
  /** Under a photo made with promptEnhance whose enrichment the text model refused (not_rendered). */
  notEnrichedRefused: 'Prompt enhancement: the AI service declined to enrich the model description, so it was used as written',
  /** Under a photo made with promptEnhance whose enrichment failed or took too long (not_rendered). */
  notEnrichedUnavailable: 'Prompt enhancement: the AI service could not enrich the model description in time, so it was used as written',
} as const;

/** What the screens show when a running-work limit is reached. */
export const RUNNING_LIMIT_MESSAGES: Record<RunningLimitName, (limit: number) => string> = {
  video: (limit) => `You have ${limit} videos in progress. Start another when one finishes.`,
  image: (limit) => `You have ${limit} images in progress. Start another when one finishes.`,
  batch: (limit) => `You have ${limit} batches in progress. Start another when one finishes.`,
};
export const RATE_LIMIT_MESSAGE = 'Too many requests. Please wait a moment and try again.';
/** What the screens show when a named rate is reached, where it says more than RATE_LIMIT_MESSAGE. */
export const RATE_LIMIT_MESSAGES: Partial<Record<RateLimitName, (limit: number, windowSeconds: number) => string>> = {
  supportTickets: (limit, windowSeconds) => `You can send ${limit} support requests every ${windowSeconds / 60} minute${windowSeconds === 60 ? '' : 's'}. Please wait a moment and try again.`,
  exports: (limit) => `You can download your data ${limit} times a day. Please try again tomorrow.`,
};
/**
 * An account export holds its place this long at most: its workflow's own timeout (WORKFLOW_TIMEOUT_SECONDS
 * .accountExport), so a lost release frees itself; the next request also frees the place of an export whose execution
 * is gone.
 */
export const EXPORT_LEASE_SECONDS = 1800;
export const EXPORT_RUNNING_MESSAGE = 'Your data is already being prepared. We will tell you here and by e-mail when it is ready.';
