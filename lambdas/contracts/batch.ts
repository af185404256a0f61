// Batch generation: one submit makes a photo for every shot of every entry (a clothing item or one of the caller's
// finished images × camera angles, and optionally its packshot for a marketplace), each
// a generations_history row of type 'batch', charged as one debit and refunded photo by photo when one fails.
// Shared by the Lambda handlers and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';
import { BATCH_DEFAULT_BACKDROP, BATCH_DEFAULT_PROMPT, BATCH_PACKSHOT_SHOT, BATCH_SHOTS, PRODUCT_TYPES, type PricingTierId } from './catalog.js';
import { MARKETPLACES } from './marketplace.js';
import { DEFAULT_IMAGE_ASPECT_RATIO, IMAGE_ASPECT_RATIOS } from './image-ratios.js';
import {
  DEFAULT_IMAGE_AI_MODEL,
  Generation,
  GenerationId,
  IMAGE_AI_MODELS,
  IMAGE_SIZE_NAMES,
  ModelId,
  ModelReference,
  PROMPT_MAX_LENGTH,
  type GenerationOperation,
} from './generations.js';
import { creditCount } from './plural.js';
import { ListResponse } from './api.js';

/** One shot of an entry: a camera angle of an on-model photo, or 'Packshot' (the API keeps the field's name, cameraAngles). */
export type CameraAngle = (typeof BATCH_SHOTS)[number];

/** At most this many entries in one batch. */
export const BATCH_MAX_ENTRIES = 20;
/** At most this many photos (entries × angles) in one batch. */
export const BATCH_MAX_PHOTOS = 120;
/** The pricing tier one photo of a batch is charged from (1 credit per camera angle). */
export const BATCH_PHOTO_TIER = 'batch-photo';
/** The pricing tier of an entry's 'Packshot' shot: the packshot operation's own, whatever model the entry names. */
export const BATCH_PACKSHOT_TIER = 'packshot' satisfies PricingTierId;
/** The marketplace preset of an entry's packshot unless it names another. */
export const BATCH_DEFAULT_MARKETPLACE = 'amazon';
/** Batch photos are made at this size unless the request names another. */
export const BATCH_DEFAULT_IMAGE_SIZE = '2k';

/** Backdrop presets of the screen; any #RRGGBB is accepted too. */
export const BACKDROP_PRESETS = [
  { name: 'white', hex: '#FFFFFF' },
  { name: 'light grey', hex: '#E5E5E5' },
  { name: 'beige', hex: '#F5F5DC' },
  { name: 'blush', hex: '#F4D6D6' },
  { name: 'sky', hex: '#D6E6F4' },
  { name: 'black', hex: '#111111' },
] as const;

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The #RRGGBB of a preset name or a hex colour; undefined when it is neither. */
export function backdropHex(value: string): string | undefined {
  const trimmed = value.trim();
  if (HEX_COLOUR.test(trimmed)) return trimmed.toUpperCase();
  return BACKDROP_PRESETS.find((preset) => preset.name === trimmed.toLowerCase())?.hex;
}

export const BATCH_MESSAGES = {
  /** To add an entry, an item (or one of the caller's results) and at least one angle are needed. */
  selectItem: 'Please select a clothing item from your library or one of your results',
  oneSource: 'Each entry takes one image: a clothing item or one of your results, not both',
  selectAngle: 'Please select at least one camera angle',
  empty: 'Please add at least one item to the batch',
  /** Shown before submitting when the balance is short, so nothing is sent that would be refused. */
  notEnoughCredits: (needed: number, available: number) => `You need ${creditCount(needed)} but only have ${available}`,
  tooManyEntries: `A batch can have at most ${BATCH_MAX_ENTRIES} entries`,
  tooManyPhotos: (photos: number) => `A batch can make at most ${BATCH_MAX_PHOTOS} photos (this one would make ${photos})`,
  invalidBackdrop: 'The backdrop colour must be a preset (white, light grey, beige, blush, sky, black) or #RRGGBB',
  duplicateAngle: 'Each camera angle can be chosen once per entry',
  unknownAngle: `Camera angles are ${BATCH_SHOTS.join(', ')}`,
  /** The message of a failed batch photo whose cause is ours or unknown: never internal text. */
  photoFailed: 'This photo could not be made. Its credit was refunded.',
  photoTimedOut: 'This photo was not made in time. Its credit was refunded.',
  photoStopped: 'This photo was not made: the batch was stopped. Its credit was refunded.',
  completeWithErrors: 'Batch Generation Complete with Errors',
  complete: 'Batch Generation Complete',
} as const;

const RESULT_KINDS: Partial<Record<GenerationOperation, string>> = { 'on-model': 'Image', edit: 'Edit', upscale: 'Upscale', batch: 'Batch photo' };

/** What a batch calls an entry made from one of the caller's results (its photos, the zip): 'Image from 2026-11-24 17:20 UTC'. */
export function resultEntryName(generation: { operation: GenerationOperation; created_at: string }): string {
  return `${RESULT_KINDS[generation.operation] ?? 'Result'} from ${generation.created_at.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * One entry of a batch: its image is `clothingItemId` (an active item of the caller's library) or `generationId` (one
 * of the caller's finished images: on-model, edit, upscale or a batch photo), exactly one of them.
 */
export const BatchEntry = /* @__PURE__ */ (() => z
  .object({
    clothingItemId: z.string({ error: BATCH_MESSAGES.selectItem }).trim().min(1, BATCH_MESSAGES.selectItem).max(64).optional(),
    generationId: GenerationId.optional(),
    /** What the entry's image shows; by default its library item's product type (clothing for a result made as clothing). */
    productType: z.enum(PRODUCT_TYPES).optional(),
    /**
     * One of the caller's saved models for this entry's photos: its description replaces the entry's prompt. Each
     * entry keeps its own; the request's `modelId` is for the entries that name none.
     */
    modelId: ModelId.optional(),
    prompt: z
      .string()
      .trim()
      .max(PROMPT_MAX_LENGTH, `The text can be at most ${PROMPT_MAX_LENGTH} characters`)
      .optional()
      .transform((prompt) => prompt || BATCH_DEFAULT_PROMPT),
    cameraAngles: z
      .array(z.enum(BATCH_SHOTS, { error: BATCH_MESSAGES.unknownAngle }), { error: BATCH_MESSAGES.selectAngle })
      .min(1, BATCH_MESSAGES.selectAngle)
      .max(BATCH_SHOTS.length, BATCH_MESSAGES.duplicateAngle)
      .refine((angles) => new Set(angles).size === angles.length, BATCH_MESSAGES.duplicateAngle),
    /**
     * The marketplace preset of the entry's 'Packshot' shot (PACKSHOT_PRESETS: its size, fill, white ground and
     * format, JPEG for Amazon); the backdrop colour is for the on-model angles.
     */
    marketplace: z.enum(MARKETPLACES).default(BATCH_DEFAULT_MARKETPLACE),
    backdrop: z
      .string()
      .default(BATCH_DEFAULT_BACKDROP)
      .transform((value, context) => {
        const hex = backdropHex(value);
        if (!hex) context.addIssue({ code: 'custom', message: BATCH_MESSAGES.invalidBackdrop });
        return hex ?? value;
      }),
  })
  .superRefine((entry, context) => {
    const named = [entry.clothingItemId, entry.generationId].filter((id) => id !== undefined).length;
    if (named !== 1) context.addIssue({ code: 'custom', message: named === 0 ? BATCH_MESSAGES.selectItem : BATCH_MESSAGES.oneSource });
  }))();
export type BatchEntry = z.input<typeof BatchEntry>;

/** POST /generate-batch: batchItems, aiModel; imageSize is ours (default 2k, as image generation). */
export const GenerateBatchRequest = /* @__PURE__ */ (() => z
  .object({
    batchItems: z
      .array(BatchEntry, { error: BATCH_MESSAGES.empty })
      .min(1, BATCH_MESSAGES.empty)
      .max(BATCH_MAX_ENTRIES, BATCH_MESSAGES.tooManyEntries),
    aiModel: z.enum(IMAGE_AI_MODELS.map((model) => model.id) as [string, ...string[]]).default(DEFAULT_IMAGE_AI_MODEL),
    imageSize: z.enum(IMAGE_SIZE_NAMES).default(BATCH_DEFAULT_IMAGE_SIZE),
    /** Every photo's ratio: 9:16 (the default), or 1:1, 4:5, 3:4. */
    aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).default(DEFAULT_IMAGE_ASPECT_RATIO),
    /** One of the caller's saved models for every entry that names none of its own (the entry's `modelId` wins). */
    modelId: ModelId.optional(),
  })
  .superRefine((body, context) => {
    const photos = body.batchItems.reduce((sum, entry) => sum + entry.cameraAngles.length, 0);
    if (photos > BATCH_MAX_PHOTOS) context.addIssue({ code: 'custom', message: BATCH_MESSAGES.tooManyPhotos(photos) });
  }))();
export type GenerateBatchRequest = z.input<typeof GenerateBatchRequest>;

/** The answer of POST /generate-batch: charged, recorded and started; follow it with GET /batches/{id}. */
export const BatchStarted = /* @__PURE__ */ (() => z.object({
  batchId: z.string(),
  photoCount: z.number().int(),
  remainingCredits: z.number().int(),
  message: z.string(),
}))();
export type BatchStarted = z.infer<typeof BatchStarted>;

export const BATCH_STATUSES = ['processing', 'complete'] as const;
/** The "Download all" zip job (workflow work): building, then ready; failed when it failed (asking again restarts it). */
export const BATCH_DOWNLOAD_STATUSES = ['building', 'ready', 'failed'] as const;
export type BatchDownloadStatus = (typeof BATCH_DOWNLOAD_STATUSES)[number];
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The batch's summary (shown on its page and in the download), written once every photo has ended. */
export const BatchSummary = /* @__PURE__ */ (() => z.object({
  message: z.string(),
  successfulGenerations: z.number().int(),
  failedGenerations: z.number().int(),
}))();
export type BatchSummary = z.infer<typeof BatchSummary>;

/** One photo of a batch as GET /batches/{id} answers it: its entry and angle, and the history row. */
export const BatchPhoto = /* @__PURE__ */ (() => z.object({
  entryIndex: z.number().int(),
  /** Null when the entry's image is one of the caller's results (its entry's generationId). */
  clothingItemId: z.string().nullable(),
  /** The item's name, or for a result what it was and when ('Image from 2026-11-24 17:20 UTC'). */
  clothingItemName: z.string(),
  cameraAngle: z.enum(BATCH_SHOTS),
  generation: Generation,
}))();
export type BatchPhoto = z.infer<typeof BatchPhoto>;

/** GET /batches/{id} and the rows of GET /batches. */
export const Batch = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  status: z.enum(BATCH_STATUSES),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  credits_used: z.number().int(),
  image_size: z.string(),
  /** Batches stored before ratios were offered are 9:16. */
  aspect_ratio: z.enum(IMAGE_ASPECT_RATIOS),
  entries: z.array(
    z.object({
      /** The entry's image: a library item or one of the caller's results; the other is null. */
      clothingItemId: z.string().nullable(),
      generationId: z.string().nullable(),
      clothingItemName: z.string(),
      productType: z.enum(PRODUCT_TYPES),
      prompt: z.string(),
      cameraAngles: z.array(z.enum(BATCH_SHOTS)),
      /** The preset of the entry's packshot; null when it asked for none. */
      marketplace: z.enum(MARKETPLACES).nullable(),
      backdrop: z.string(),
      /** The saved model of this entry's photos; null when the entry's prompt describes the model. */
      model: ModelReference.nullable(),
    }),
  ),
  progress: z.object({ done: z.number().int(), failed: z.number().int(), total: z.number().int() }),
  /** Once every photo has ended. */
  summary: BatchSummary.nullable(),
  /**
   * The saved model of every photo, with a signed URL of its portrait (null without one); null when no saved model
   * was used or when entries use different ones (each entry names its own: entries[].model).
   */
  model: ModelReference.extend({ portrait_url: z.string().nullable() }).nullable(),
  /** The "Download all" zip once asked for (POST /batches/{id}/download): building, ready or failed; null before. */
  download: z.object({ status: z.enum(BATCH_DOWNLOAD_STATUSES) }).nullable(),
  /** Only in GET /batches/{id}. */
  photos: z.array(BatchPhoto).optional(),
}))();
export type Batch = z.infer<typeof Batch>;

/**
 * POST /batches/{id}/download: starts the zip job (or finds the one building, or the zip built), answered at once.
 * Once `ready`, `url` is a signed URL that saves the zip as `fileName`; while `building`, GET /batches/{id} (or the
 * live `batches` change) tells when it is ready, and asking again answers the URL.
 */
export const BatchDownload = /* @__PURE__ */ (() => z.object({
  status: z.enum(['building', 'ready']),
  /** Once ready: the signed URL of the zip (null while building). */
  url: z.string().nullable(),
  /** When `url` stops working (3600 s, or sooner when its signing credentials expire); null while building. */
  expiresAt: z.string().nullable(),
  fileName: z.string(),
  photoCount: z.number().int(),
}))();
export type BatchDownload = z.infer<typeof BatchDownload>;

/**
 * "Retry failed": a new batch of just the failed photos of a finished one (each failed angle of each entry, with the
 * entry's image, product type, prompt and backdrop, at the batch's size and ratio), charged as any batch. Undefined
 * when nothing failed.
 */
export function retryFailedRequest(batch: Batch): GenerateBatchRequest | undefined {
  const failedAngles = new Map<number, CameraAngle[]>();
  for (const photo of batch.photos ?? []) {
    if (photo.generation.status === 'failed') failedAngles.set(photo.entryIndex, [...(failedAngles.get(photo.entryIndex) ?? []), photo.cameraAngle]);
  }
  if (failedAngles.size === 0) return undefined;
  const batchItems = [...failedAngles].map(([entryIndex, cameraAngles]) => {
    const entry = batch.entries[entryIndex]!;
    return {
      ...(entry.generationId ? { generationId: entry.generationId } : { clothingItemId: entry.clothingItemId ?? undefined }),
      productType: entry.productType,
      prompt: entry.prompt,
      ...(entry.model ? { modelId: entry.model.id } : {}),
      cameraAngles: BATCH_SHOTS.filter((angle) => cameraAngles.includes(angle)),
      ...(entry.marketplace ? { marketplace: entry.marketplace } : {}),
      backdrop: entry.backdrop,
    };
  });
  const imageSize = (IMAGE_SIZE_NAMES as readonly string[]).includes(batch.image_size) ? (batch.image_size as (typeof IMAGE_SIZE_NAMES)[number]) : undefined;
  return { batchItems, ...(imageSize && { imageSize }), aspectRatio: batch.aspect_ratio };
}

// ——— Routes (lambdas/contracts/route.ts) ———

export const generateBatchRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/generate-batch',
  auth: 'user',
  publicApi: true,
  summary: 'Generate photos of items or your results × camera angles (and listing-ready packshots) in one batch',
  body: GenerateBatchRequest,
  idempotent: true,
  response: BatchStarted,
  errors: { 403: ROUTE_ERRORS.notYours, 409: ROUTE_ERRORS.imageNotReady },
  sample: {
    body: {
      batchItems: [
        { clothingItemId: SAMPLE_IDS.clothingItem, prompt: 'young female model', cameraAngles: ['Product', 'Front', BATCH_PACKSHOT_SHOT], marketplace: 'amazon', backdrop: 'white' },
      ],
      imageSize: '1k',
    },
  },
}))();

export const listBatchesRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/batches', auth: 'user', publicApi: true, summary: 'Your batches', response: ListResponse(Batch) }))();

export const getBatchRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/batches/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'One batch and its photos',
  response: Batch,
  sample: { params: { id: SAMPLE_IDS.batch } },
}))();

export const downloadBatchRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/batches/{id}/download',
  auth: 'user',
  publicApi: true,
  summary: 'The zip of a batch (photos + manifest.csv): starts building it, then answers its signed URL once ready',
  response: BatchDownload,
  status: 202,
  errors: { 409: 'The batch is still running (BATCH_RUNNING), or none of its photos finished (NOTHING_TO_DOWNLOAD).' },
  sample: { params: { id: SAMPLE_IDS.batch } },
}))();
