// Request and response shapes of the HTTP API, shared by the Lambda handlers and the web app.
//
// Every schema is built inside a `/* @__PURE__ */ (() => …)()`. Building a zod schema runs code, so without the mark a
// bundler keeps every schema of every contracts module a function imports: list-jobs built 551 zod objects at each
// cold start for the few it reads (about 13 ms of a 70 ms load). Marked, a function builds only what it reads.
// test/infra/lean-functions.test.ts holds the rule.
import * as z from 'zod';
import { defineRoute } from './route.js';
import {
  CLOTHING_DESCRIPTION_MAX_LENGTH,
  CLOTHING_NAME_MAX_LENGTH,
  IMAGE_MIME_TYPES,
  MAX_PURCHASE_CREDITS,
  MIN_CUSTOM_CREDITS,
  PRODUCT_TYPES,
} from './catalog.js';

/** Every error answer of the API: a message a person can read and a stable code a program can test. */
export const ApiErrorBody = /* @__PURE__ */ (() => z.object({ error: z.string(), code: z.string() }))();
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const Profile = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  email: z.string(),
  created_at: z.string(),
  last_login: z.string(),
  current_credits: z.number().int(),
  plan_id: z.string(),
  total_credits_spent: z.number().int(),
}))();
export type Profile = z.infer<typeof Profile>;

/** `refund_of_purchase`: bought credits given back because the payment was refunded (never more than bought). */
export const TRANSACTION_TYPES = ['signup_bonus', 'purchase', 'debit', 'refund', 'refund_of_purchase'] as const;

/** What a card payment behind a ledger entry was: set on purchases paid through Stripe and on their refunds. */
export const PaymentDetails = /* @__PURE__ */ (() => z.object({
  provider: z.literal('stripe'),
  /** The amount in the currency's smallest unit (cents). */
  amount_cents: z.number().int(),
  currency: z.string(),
  checkout_session_id: z.string(),
  payment_intent_id: z.string().optional(),
  charge_id: z.string().optional(),
  refund_id: z.string().optional(),
  receipt_url: z.string().optional(),
  livemode: z.boolean().optional(),
}))();
export type PaymentDetails = z.infer<typeof PaymentDetails>;

export const CreditTransaction = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  user_id: z.string(),
  description: z.string(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  balance_after: z.number().int(),
  created_at: z.string(),
  payment: PaymentDetails.optional(),
}))();
export type CreditTransaction = z.infer<typeof CreditTransaction>;

export const PricingTier = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  feature_type: z.string(),
  display_name: z.string(),
  description: z.string(),
  credits_cost: z.number().int(),
  is_active: z.boolean(),
  sort_order: z.number().int(),
}))();
export type PricingTier = z.infer<typeof PricingTier>;

export const PurchaseCreditsRequest = /* @__PURE__ */ (() => z.object({
  credits: z
    .number({ error: 'Enter the number of credits to buy' })
    .int('Credits must be a whole number')
    .min(MIN_CUSTOM_CREDITS, `The minimum is ${MIN_CUSTOM_CREDITS} credit`)
    .max(MAX_PURCHASE_CREDITS, `At most ${MAX_PURCHASE_CREDITS} credits can be bought at once`),
}))();
export type PurchaseCreditsRequest = z.infer<typeof PurchaseCreditsRequest>;

export const PurchaseCreditsResponse = /* @__PURE__ */ (() => z.object({
  credits: z.number().int(),
  amountUsd: z.number(),
  newCredits: z.number().int(),
  transaction: CreditTransaction,
  payment: z.object({ method: z.literal('local-test-payment'), id: z.string() }),
}))();
export type PurchaseCreditsResponse = z.infer<typeof PurchaseCreditsResponse>;

export const ListResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

/** The header every spending request carries; a retry with the same key never charges twice. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKey = /* @__PURE__ */ (() => z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,128}$/, 'The Idempotency-Key header must be 8 to 128 letters, digits, - or _'))();

/** Runtime configuration of the web app, served as /config.json by both hosts. */
export const RuntimeConfig = /* @__PURE__ */ (() => z.object({
  apiUrl: z.string().url(),
  websocketUrl: z.string().optional(),
  region: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  /** Where the web app talks to Cognito; set only on the local twin (cognito-local). */
  cognitoEndpoint: z.string().url().optional(),
  /** Hosted UI domain and social providers for OAuth sign-in; absent when none is configured. */
  oauth: z
    .object({ domain: z.string(), providers: z.array(z.string()), redirectUrl: z.string().url() })
    .optional(),
  host: z.enum(['local', 'cloud']),
  testPayments: z.boolean(),
  /** How credits are bought here; absent in a config.json written before payments had modes. */
  payments: z.enum(['stripe', 'test', 'off']).optional(),
  /** Publishing to Shopify is set up (Settings shows Shops, results show "Publish to Shopify"). */
  shopify: z.boolean().optional(),
  /** The measured median seconds of the stage's video adapter (contracts/expected-wait.ts); absent when unmeasured. */
  expectedVideoSeconds: z.number().positive().optional(),
  /** The measured median seconds of an upscale to each size on the stage's upscale adapter; absent when unmeasured. */
  expectedUpscaleSeconds: z.object({ '2k': z.number().positive(), '4k': z.number().positive(), '8k': z.number().positive() }).optional(),
}))();
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

// ——— Clothing library (the clothing_items table, clothing upload) ———

export const ImageMimeType = /* @__PURE__ */ (() => z.enum(IMAGE_MIME_TYPES))();
export type ImageMimeType = z.infer<typeof ImageMimeType>;

export const ClothingItem = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The storage key in the clothing-images bucket: {userId}/{timestamp}-{random}.{ext} (the public API's name). */
  image_url: z.string(),
  file_size_bytes: z.number().int(),
  /** The type detected from the stored bytes, whatever the upload claimed. */
  mime_type: ImageMimeType,
  is_deleted: z.boolean(),
  generations_count: z.number().int(),
  created_at: z.string(),
  /** What the product is (clothing or jewelry): what image generation and batch entries use unless told otherwise. */
  product_type: z.enum(PRODUCT_TYPES),
  /** A signed GET URL for display, valid SIGNED_URL_SECONDS from the answer or until `url_expires_at`. */
  signed_url: z.string(),
  /**
   * A signed GET URL of the item's thumbnail, what tiles show: WebP, made once when the item is registered, covering
   * CLOTHING_THUMBNAIL_BOX; null for an item stored before thumbnails until POST /clothing-items/thumbnails makes it.
   */
  thumbnail_signed_url: z.string().nullable(),
  /** When the signed URL stops working: SIGNED_URL_SECONDS, or sooner when the credentials that signed it expire. */
  url_expires_at: z.string(),
}))();
export type ClothingItem = z.infer<typeof ClothingItem>;

/** A clothing item as the code and the clothing_items table hold it: its image by key, without the signed URLs. */
export type ClothingItemRecord = Omit<ClothingItem, 'image_url' | 'signed_url' | 'thumbnail_signed_url' | 'url_expires_at'> & {
  /** The storage key in the clothing-images bucket: {userId}/{timestamp}-{random}.{ext}. */
  image_key: string;
  /** Its thumbnail's key in the same bucket, {userId}/thumbnails/{id}.webp; absent on items stored before thumbnails. */
  thumbnail_key?: string;
};

/** An item as the API answers it: its key under the public API's name (`image_url`), and signed URLs to display it. */
export function clothingItemOnWire(
  { image_key, thumbnail_key: _thumbnail, ...item }: ClothingItemRecord,
  signed: Pick<ClothingItem, 'signed_url' | 'thumbnail_signed_url' | 'url_expires_at'>,
): ClothingItem {
  return { ...item, image_url: image_key, ...signed };
}

/**
 * The box a clothing item's thumbnail covers (fit "outside", never enlarged): 3:4 like the library's tiles, about twice
 * a phone's tile (171×228 CSS px at 390 px wide) and 1.5 times the widest desktop tile (about 260 px at 1440 px).
 */
export const CLOTHING_THUMBNAIL_BOX = { width: 384, height: 512 } as const;

/** POST /clothing-items/thumbnails: the thumbnails made by this call, and the items still without one. */
export const MakeClothingThumbnailsResponse = /* @__PURE__ */ (() => z.object({
  made: z.number().int(),
  remaining: z.number().int(),
}))();
export type MakeClothingThumbnailsResponse = z.infer<typeof MakeClothingThumbnailsResponse>;

export const ClothingItemName = /* @__PURE__ */ (() => z
  .string({ error: 'Please enter a name' })
  .trim()
  .min(1, 'Please enter a name')
  .max(CLOTHING_NAME_MAX_LENGTH, `The name can be at most ${CLOTHING_NAME_MAX_LENGTH} characters`))();
/** Optional; blank becomes null. */
export const ClothingItemDescription = /* @__PURE__ */ (() => z
  .string()
  .trim()
  .max(CLOTHING_DESCRIPTION_MAX_LENGTH, `The description can be at most ${CLOTHING_DESCRIPTION_MAX_LENGTH} characters`)
  .nullable()
  .transform((text) => text || null))();

/** The declared file; type and size are checked with the upload rules' messages (upload-rules.ts) before any URL is signed. */
export const CreateUploadUrlRequest = /* @__PURE__ */ (() => z.object({
  fileName: z.string().max(255, 'The file name is too long'),
  contentType: z.string().max(100),
  sizeBytes: z.number().int().min(0),
}))();
export type CreateUploadUrlRequest = z.infer<typeof CreateUploadUrlRequest>;

export const CreateUploadUrlResponse = /* @__PURE__ */ (() => z.object({
  /** PUT the file here, with exactly `headers`, before `expiresAt`. */
  uploadUrl: z.string(),
  headers: z.record(z.string(), z.string()),
  imageKey: z.string(),
  expiresAt: z.string(),
}))();
export type CreateUploadUrlResponse = z.infer<typeof CreateUploadUrlResponse>;

export const RegisterClothingItemRequest = /* @__PURE__ */ (() => z.object({
  imageKey: z.string().min(1, 'The uploaded image is missing').max(512),
  name: ClothingItemName,
  description: ClothingItemDescription.optional(),
  /** The upload screen's choice; clothing when not given. */
  productType: z.enum(PRODUCT_TYPES).default('clothing'),
}))();
export type RegisterClothingItemRequest = z.input<typeof RegisterClothingItemRequest>;

export const UpdateClothingItemRequest = /* @__PURE__ */ (() => z
  .object({ name: ClothingItemName.optional(), description: ClothingItemDescription.optional(), productType: z.enum(PRODUCT_TYPES).optional() })
  .refine((changes) => changes.name !== undefined || changes.description !== undefined || changes.productType !== undefined, 'Nothing to change'))();
export type UpdateClothingItemRequest = z.input<typeof UpdateClothingItemRequest>;

/** `?active=true`: only items not deleted (the generation pickers); otherwise every item, deleted ones included. */
export const ClothingItemsQuery = /* @__PURE__ */ (() => z.object({ active: z.enum(['true', 'false']).optional() }))();

// ——— Realtime (live credits, live lists) ———

/** The WebSocket's query-string parameter that carries the ID token to the $connect authorizer. */
export const WEBSOCKET_TOKEN_PARAM = 'token';
/**
 * Lists that refresh live: each is also the first element of the web app's query keys for that list
 * (`account-export`: the latest "Download my data" export, which the profile carries).
 */
export const LIVE_RESOURCES = ['clothing-items', 'generations', 'jobs', 'batches', 'account-export', 'publications'] as const;
export type LiveResource = (typeof LIVE_RESOURCES)[number];
/** What the server pushes on a user's WebSocket connections: the new balance, or "this list changed, reload it". */
export const RealtimeMessage = /* @__PURE__ */ (() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('credits'), current_credits: z.number().int() }),
  z.object({ type: z.literal('changed'), resource: z.enum(LIVE_RESOURCES) }),
]))();
export type RealtimeMessage = z.infer<typeof RealtimeMessage>;

// ——— Payments: Stripe Checkout, refunds of unused credits, receipts ———

/** `stripe`: card payments through Stripe Checkout; `test`: a labelled test payment (never on prod); `off`: none. */
export const PAYMENT_MODES = ['stripe', 'test', 'off'] as const;
export const PaymentMode = /* @__PURE__ */ (() => z.enum(PAYMENT_MODES))();
export type PaymentMode = z.infer<typeof PaymentMode>;

/** Stripe's smallest USD charge is $0.50, so a card purchase is at least 5 credits. */
export const MIN_CARD_CREDITS = 5;
/** Refunds of unused credits are possible this long after the purchase. */
export const REFUND_WINDOW_DAYS = 7;
/** Credits the labelled test payment grants one user per UTC day, at most. */
export const TEST_PAYMENT_DAILY_CREDITS = 20_000;

export const CheckoutRequest = /* @__PURE__ */ (() => PurchaseCreditsRequest.refine((request) => request.credits >= MIN_CARD_CREDITS, {
  message: `Card payments start at ${MIN_CARD_CREDITS} credits ($0.50)`,
  path: ['credits'],
}))();
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;

export const CheckoutResponse = /* @__PURE__ */ (() => z.object({
  /** Stripe's hosted payment page: the browser goes there. */
  url: z.string().url(),
  sessionId: z.string(),
}))();
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

export const RefundRequest = /* @__PURE__ */ (() => z.object({
  transactionId: z.string({ error: 'Name the purchase to refund' }).min(1, 'Name the purchase to refund').max(300),
}))();
export type RefundRequest = z.infer<typeof RefundRequest>;

export const RefundResponse = /* @__PURE__ */ (() => z.object({
  transaction: CreditTransaction,
  newCredits: z.number().int(),
  refund: z.object({ id: z.string(), status: z.string() }),
}))();
export type RefundResponse = z.infer<typeof RefundResponse>;

/** One purchase on the billing page's receipts list. */
export const PurchaseReceipt = /* @__PURE__ */ (() => z.object({
  transactionId: z.string(),
  credits: z.number().int(),
  created_at: z.string(),
  description: z.string(),
  /** Absent for a test payment. */
  amount_cents: z.number().int().optional(),
  currency: z.string().optional(),
  receipt_url: z.string().optional(),
  refunded: z.boolean(),
  /** Whether a refund request would be accepted now (window open, credits unused, paid by card). */
  refundable: z.boolean(),
}))();
export type PurchaseReceipt = z.infer<typeof PurchaseReceipt>;


/**
 * Totals over the caller's whole ledger (GET /credit-transactions/summary): what the Usage screen shows.
 * `spent` is what debits took less what refunds gave back; `purchase_refunded` is bought credits taken back
 * because the payment was refunded.
 */
export const CreditSummary = /* @__PURE__ */ (() => z.object({
  bought: z.number().int(),
  granted: z.number().int(),
  charged: z.number().int(),
  refunded: z.number().int(),
  spent: z.number().int(),
  purchase_refunded: z.number().int(),
  purchases: z.number().int(),
  entries: z.number().int(),
}))();
export type CreditSummary = z.infer<typeof CreditSummary>;

/** What the plan cards show: "Pay as you go" once the user has bought credits, the stored plan before. */
export const PAY_AS_YOU_GO_PLAN = 'Pay as you go';

/**
 * How long the caller's recent work of each kind took (GET /generation-durations): the median seconds from request
 * to result over the newest complete ones, null when there are too few to say.
 */
export const GenerationDurations = /* @__PURE__ */ (() => z.object({
  image: z.number().nullable(),
  video: z.number().nullable(),
  samples: z.object({ image: z.number().int(), video: z.number().int() }),
}))();
export type GenerationDurations = z.infer<typeof GenerationDurations>;

// ——— Routes (lambdas/contracts/route.ts): profile, ledger, prices (payments.ts and clothing.ts hold theirs) ———

/** The first authenticated call of a new user creates the profile with the sign-up credits. */
export const getProfileRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/profile', auth: 'user', publicApi: true, summary: 'Your profile and credit balance', response: Profile }))();

export const listCreditTransactionsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/credit-transactions',
  auth: 'user',
  publicApi: true,
  summary: 'Your latest credit transactions',
  response: ListResponse(CreditTransaction),
}))();

export const getCreditSummaryRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/credit-transactions/summary',
  auth: 'user',
  summary: 'Bought, spent and refunded credits over your whole ledger',
  response: CreditSummary,
}))();

/**
 * The four steps of a new seller's first hour, in order (the dashboard ticks each one done): a product in the library,
 * an on-model photo, a packshot, a video. A batch's photos count as on-model photos, its Packshot shots as packshots.
 */
export const FIRST_STEPS = ['product', 'on-model-photo', 'packshot', 'video'] as const;
export type FirstStep = (typeof FIRST_STEPS)[number];

export const FirstStepsResponse = /* @__PURE__ */ (() => z.object({
  /** The steps the seller has done, in FIRST_STEPS order. */
  done: z.array(z.enum(FIRST_STEPS)),
}))();
export type FirstStepsResponse = z.infer<typeof FirstStepsResponse>;

export const getFirstStepsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/first-steps',
  auth: 'user',
  summary: 'Which of a new seller\'s four first steps are done (a product, an on-model photo, a packshot, a video)',
  response: FirstStepsResponse,
}))();

export const listPricingTiersRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/pricing-tiers',
  auth: 'public',
  summary: 'What each kind of work costs, in credits',
  response: ListResponse(PricingTier),
}))();

export const getGenerationDurationsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/generation-durations',
  auth: 'user',
  summary: 'The median time of your recent images and videos',
  response: GenerationDurations,
}))();
