// Request and response shapes of the HTTP API, shared by the Lambda handlers and the web app.
import * as z from 'zod';
import {
  CLOTHING_DESCRIPTION_MAX_LENGTH,
  CLOTHING_NAME_MAX_LENGTH,
  IMAGE_MIME_TYPES,
  MAX_PURCHASE_CREDITS,
  MIN_CUSTOM_CREDITS,
} from './catalog.js';

/** Every error answer of the API: a message a person can read and a stable code a program can test. */
export const ApiErrorBody = z.object({ error: z.string(), code: z.string() });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const Profile = z.object({
  id: z.string(),
  email: z.string(),
  created_at: z.string(),
  last_login: z.string(),
  current_credits: z.number().int(),
  plan_id: z.string(),
  total_credits_spent: z.number().int(),
});
export type Profile = z.infer<typeof Profile>;

export const TRANSACTION_TYPES = ['signup_bonus', 'purchase', 'debit', 'refund'] as const;
export const CreditTransaction = z.object({
  id: z.string(),
  user_id: z.string(),
  description: z.string(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  balance_after: z.number().int(),
  created_at: z.string(),
});
export type CreditTransaction = z.infer<typeof CreditTransaction>;

export const PricingTier = z.object({
  id: z.string(),
  feature_type: z.string(),
  display_name: z.string(),
  description: z.string(),
  credits_cost: z.number().int(),
  is_active: z.boolean(),
  sort_order: z.number().int(),
});
export type PricingTier = z.infer<typeof PricingTier>;

export const PurchaseCreditsRequest = z.object({
  credits: z
    .number({ error: 'Enter the number of credits to buy' })
    .int('Credits must be a whole number')
    .min(MIN_CUSTOM_CREDITS, `The minimum is ${MIN_CUSTOM_CREDITS} credit`)
    .max(MAX_PURCHASE_CREDITS, `At most ${MAX_PURCHASE_CREDITS} credits can be bought at once`),
});
export type PurchaseCreditsRequest = z.infer<typeof PurchaseCreditsRequest>;

export const PurchaseCreditsResponse = z.object({
  credits: z.number().int(),
  amountUsd: z.number(),
  newCredits: z.number().int(),
  transaction: CreditTransaction,
  payment: z.object({ method: z.literal('local-test-payment'), id: z.string() }),
});
export type PurchaseCreditsResponse = z.infer<typeof PurchaseCreditsResponse>;

export const ListResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

/** The header every spending request carries; a retry with the same key never charges twice. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,128}$/, 'The Idempotency-Key header must be 8 to 128 letters, digits, - or _');

/** Runtime configuration of the web app, served as /config.json by both hosts. */
export const RuntimeConfig = z.object({
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
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

// ——— Clothing library (spec §3 clothing_items, §5 clothing upload) ———

export const ImageMimeType = z.enum(IMAGE_MIME_TYPES);
export type ImageMimeType = z.infer<typeof ImageMimeType>;

export const ClothingItem = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The storage key in the clothing-images bucket: {userId}/{timestamp}-{random}.{ext}. */
  image_url: z.string(),
  file_size_bytes: z.number().int(),
  /** The type detected from the stored bytes, whatever the upload claimed. */
  mime_type: ImageMimeType,
  is_deleted: z.boolean(),
  generations_count: z.number().int(),
  created_at: z.string(),
  /** A signed GET URL for display, valid SIGNED_URL_SECONDS from the answer. */
  signed_url: z.string(),
});
export type ClothingItem = z.infer<typeof ClothingItem>;

export const ClothingItemName = z
  .string({ error: 'Please enter a name' })
  .trim()
  .min(1, 'Please enter a name')
  .max(CLOTHING_NAME_MAX_LENGTH, `The name can be at most ${CLOTHING_NAME_MAX_LENGTH} characters`);
/** Optional; blank becomes null. */
export const ClothingItemDescription = z
  .string()
  .trim()
  .max(CLOTHING_DESCRIPTION_MAX_LENGTH, `The description can be at most ${CLOTHING_DESCRIPTION_MAX_LENGTH} characters`)
  .nullable()
  .transform((text) => text || null);

/** The declared file; type and size are checked with the specification's messages before any URL is signed. */
export const CreateUploadUrlRequest = z.object({
  fileName: z.string().max(255, 'The file name is too long'),
  contentType: z.string().max(100),
  sizeBytes: z.number().int().min(0),
});
export type CreateUploadUrlRequest = z.infer<typeof CreateUploadUrlRequest>;

export const CreateUploadUrlResponse = z.object({
  /** PUT the file here, with exactly `headers`, before `expiresAt`. */
  uploadUrl: z.string(),
  headers: z.record(z.string(), z.string()),
  imageKey: z.string(),
  expiresAt: z.string(),
});
export type CreateUploadUrlResponse = z.infer<typeof CreateUploadUrlResponse>;

export const RegisterClothingItemRequest = z.object({
  imageKey: z.string().min(1, 'The uploaded image is missing').max(512),
  name: ClothingItemName,
  description: ClothingItemDescription.optional(),
});
export type RegisterClothingItemRequest = z.input<typeof RegisterClothingItemRequest>;

export const UpdateClothingItemRequest = z
  .object({ name: ClothingItemName.optional(), description: ClothingItemDescription.optional() })
  .refine((changes) => changes.name !== undefined || changes.description !== undefined, 'Nothing to change');
export type UpdateClothingItemRequest = z.input<typeof UpdateClothingItemRequest>;

/** `?active=true`: only items not deleted (the generation pickers); otherwise every item, deleted ones included. */
export const ClothingItemsQuery = z.object({ active: z.enum(['true', 'false']).optional() });

// ——— Realtime (spec §4: live credits, live lists) ———

/** The WebSocket's query-string parameter that carries the ID token to the $connect authorizer. */
export const WEBSOCKET_TOKEN_PARAM = 'token';
/** Lists that refresh live: each is also the first element of the web app's query keys for that list. */
export const LIVE_RESOURCES = ['clothing-items', 'generations', 'jobs', 'batches'] as const;
export type LiveResource = (typeof LIVE_RESOURCES)[number];
/** What the server pushes on a user's WebSocket connections: the new balance, or "this list changed, reload it". */
export const RealtimeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('credits'), current_credits: z.number().int() }),
  z.object({ type: z.literal('changed'), resource: z.enum(LIVE_RESOURCES) }),
]);
export type RealtimeMessage = z.infer<typeof RealtimeMessage>;
