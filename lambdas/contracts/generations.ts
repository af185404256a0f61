// Generations (the generations_history table; image generation, edit and upscale and their routes): the history
// row every image, edit, upscale, video and batch photo writes, and the bodies and answers of the image routes.
// Shared by the Lambda handlers and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { CreateUploadUrlRequest, CreateUploadUrlResponse, ListResponse } from './api.js';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';
import {
  CAMERA_ZOOMS,
  DEFAULT_IMAGE_SIZE,
  DEFAULT_UPSCALE_RESOLUTION,
  HISTORY_LIMIT,
  PRODUCT_TYPES,
} from './catalog.js';
import { DEFAULT_IMAGE_ASPECT_RATIO, IMAGE_ASPECT_RATIOS } from './image-ratios.js';
import { ComplianceReport } from './marketplace.js';
import { GENERATION_UPLOAD_URL_PATH, INLINE_IMAGE_TOO_LARGE, inlineImageField } from './inline-image.js';

/** generation_type: what the History tabs filter on. */
export const GENERATION_TYPES = ['image', 'video', 'batch'] as const;
export type GenerationType = (typeof GENERATION_TYPES)[number];

/** What made the row: image generation (on a model), an edit, an upscale, a video, a batch photo, a packshot. */
export const GENERATION_OPERATIONS = ['on-model', 'edit', 'upscale', 'video', 'batch', 'packshot'] as const;
export type GenerationOperation = (typeof GENERATION_OPERATIONS)[number];

/** 'complete' and 'failed' are final; 'processing': charged, work under way. */
export const GENERATION_STATUSES = ['processing', 'complete', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const IMAGE_SIZE_NAMES = ['1k', '2k', '4k'] as const;
export const UPSCALE_RESOLUTION_NAMES = ['2k', '4k', '8k'] as const;
export type ImageSizeName = (typeof IMAGE_SIZE_NAMES)[number];
export type UpscaleResolutionName = (typeof UPSCALE_RESOLUTION_NAMES)[number];

/** The single model option of image generation: the studio model behind the configured on-model port. */
export const IMAGE_AI_MODELS = [{ id: 'modelloop-studio', label: 'ModelLoop Studio' }] as const;
export const DEFAULT_IMAGE_AI_MODEL = IMAGE_AI_MODELS[0].id;

/** The default model description, shown as the placeholder of the description field. */
export const MODEL_DESCRIPTION_PLACEHOLDER =
  'e.g. young female model, natural smile, standing relaxed, neutral studio background';
export const PROMPT_MAX_LENGTH = 1000;

/** The messages the image screens show before any call, also the server's where the same rule is broken. */
export const GENERATION_MESSAGES = {
  selectClothingItem: 'Please select a clothing item from your library',
  uploadProductImage: 'Please upload a product image',
  enterModelDescription: 'Please enter a model description',
  needOneCredit: 'You need at least 1 credit to generate an image',
  chooseImage: 'Please upload an image or choose one of your results',
  enterEditInstructions: 'Please enter editing instructions',
  /** The message of a failed generation whose cause is ours or unknown: never internal text. */
  genericFailure: 'Generation failed. Your credits were refunded.',
} as const;

/**
 * Generation ids: what a path or the image reference of an edit or upscale may name (the deterministic ids of
 * generations-repo and job ids).
 */
export const GenerationId = /* @__PURE__ */ (() => z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'This is not a generation id.'))();

/** Saved model ids (the models table): `mdl_` and a time-ordered id. */
export const ModelId = /* @__PURE__ */ (() => z.string().trim().regex(/^mdl_[A-Za-z0-9_-]{1,64}$/, 'This model was not found.'))();

/** Which saved model made a picture (generation rows, batches); null when the model was described in words. */
export const ModelReference = /* @__PURE__ */ (() => z.object({ id: z.string(), name: z.string() }))();
export type ModelReference = z.infer<typeof ModelReference>;

/** The request's settings, kept for audit and shown in History (prompt, size, zoom, instruction, resolution …). */
export const GenerationParams = /* @__PURE__ */ (() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))();
export type GenerationParams = z.infer<typeof GenerationParams>;

/** Where a result was published to Shopify (lambdas/contracts/shopify.ts): on its card and in History. */
export const PublishedPlace = /* @__PURE__ */ (() => z.object({
  shop: z.string(),
  product_id: z.string(),
  product_title: z.string(),
  /** The product's page in the shop admin. */
  admin_url: z.string(),
  published_at: z.string(),
}))();
export type PublishedPlace = z.infer<typeof PublishedPlace>;

/** A generations_history row as the API answers it; result_url and thumbnail_url are signed GET URLs (3600 s). */
export const Generation = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  user_id: z.string(),
  generation_type: z.enum(GENERATION_TYPES),
  operation: z.enum(GENERATION_OPERATIONS),
  ai_model: z.string(),
  status: z.enum(GENERATION_STATUSES),
  credits_used: z.number().int(),
  /** What came back of credits_used: all of it for a failed image or batch photo, what a failed video job refunded. */
  credits_refunded: z.number().int(),
  result_url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  /** When result_url and thumbnail_url stop working (3600 s, or sooner when their signing credentials expire). */
  url_expires_at: z.string(),
  /** 'image/png' for pictures, 'image/jpeg' for JPEG packshots, 'video/mp4' for videos; null until there is a result. */
  result_content_type: z.string().nullable(),
  /** The name to save the result under (contracts/file-names.ts): product, kind, size or marketplace; null until there is a result. */
  file_name: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  params: GenerationParams,
  /** What the request asked for that the model did not render (the preview engine lists them under the result). */
  not_rendered: z.array(z.string()).optional(),
  /** The saved model that made the picture; null when the model was described in words (or for edits, videos…). */
  model: ModelReference.nullable(),
  /** The picture against every marketplace's measurable rules (lambdas/contracts/marketplace.ts), once it is made. */
  compliance: ComplianceReport.optional(),
  /** What the picture is called where one is picked: product, saved model and size ("Blue Logo Tee · Maya · 2K 9:16"), then what was done ("· Edited"). */
  title: z.string(),
  /** Where it was published to Shopify, with a link to each product in the shop admin. */
  published: z.array(PublishedPlace).optional(),
}))();
export type Generation = z.infer<typeof Generation>;

/** GET /generations: newest first; `type` filters; `picker=true` = complete image results (edit/upscale pickers). */
export const GenerationsQuery = /* @__PURE__ */ (() => z.object({
  type: z.enum(GENERATION_TYPES).optional(),
  limit: z.coerce
    .number()
    .int('The limit must be a whole number')
    .min(1, 'The limit must be at least 1')
    .max(HISTORY_LIMIT, `The limit can be at most ${HISTORY_LIMIT}`)
    .optional(),
  picker: z.enum(['true', 'false']).optional(),
}))();
export type GenerationsQuery = z.input<typeof GenerationsQuery>;

const prompt = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(PROMPT_MAX_LENGTH, `The text can be at most ${PROMPT_MAX_LENGTH} characters`);

/**
 * POST /generate-ai-image. The product image is one of: `clothingItemId` (an active item of the caller's library),
 * `imageData` (the file as base64 or a data URL, for API callers; at most INLINE_IMAGE_MAX_BYTES, 4 MB, what a
 * Lambda request's 6 MB holds: contracts/inline-image.ts), or `imageKey` (a file uploaded through
 * POST /generation-uploads/upload-url, up to 10 MB; what the web app sends).
 */
export const GenerateImageRequest = /* @__PURE__ */ (() => z
  .object({
    clothingItemId: z.string().trim().min(1).max(64).optional(),
    imageData: inlineImageField('Send the product image').optional(),
    imageKey: z.string().trim().min(1).max(512).optional(),
    productType: z.enum(PRODUCT_TYPES).default('clothing'),
    /** The model description; optional when `modelId` names a saved model, whose description is used instead. */
    prompt: prompt(GENERATION_MESSAGES.enterModelDescription).optional(),
    /** One of the caller's saved models (GET /models): its description, portrait and seed make the person. */
    modelId: ModelId.optional(),
    aiModel: z.enum(IMAGE_AI_MODELS.map((model) => model.id) as [string, ...string[]]).default(DEFAULT_IMAGE_AI_MODEL),
    cameraZoom: z.enum(CAMERA_ZOOMS).default('auto'),
    imageSize: z.enum(IMAGE_SIZE_NAMES).default(DEFAULT_IMAGE_SIZE),
    /** The picture's ratio: 9:16 (the default), or 1:1, 4:5, 3:4 for marketplaces; each at every imageSize. */
    aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).default(DEFAULT_IMAGE_ASPECT_RATIO),
    promptEnhance: z.boolean().default(false),
  })
  .superRefine((body, context) => {
    if (body.prompt === undefined && body.modelId === undefined) {
      context.addIssue({ code: 'custom', message: GENERATION_MESSAGES.enterModelDescription, path: ['prompt'] });
    }
    const sources = [body.clothingItemId, body.imageData, body.imageKey].filter((source) => source !== undefined);
    if (sources.length === 0) {
      context.addIssue({
        code: 'custom',
        message: `${GENERATION_MESSAGES.selectClothingItem} or upload a product image`,
      });
    } else if (sources.length > 1) {
      context.addIssue({ code: 'custom', message: 'Send one product image: a clothing item or an uploaded image, not both' });
    }
  }))();
export type GenerateImageRequest = z.input<typeof GenerateImageRequest>;

/** An image the caller owns: a generation id, a result key, a clothing item's key or an uploaded file's key. */
const ImageReference = /* @__PURE__ */ (() => z
  .string({ error: GENERATION_MESSAGES.chooseImage })
  .trim()
  .min(1, GENERATION_MESSAGES.chooseImage)
  .max(512, 'This is not an image of your account.'))();

/**
 * The wire's `imageUrl` (the public API's name) holds an image reference, never a link: the handlers get it as
 * `imageRef`.
 */
const withImageRef = <T extends { imageUrl: string }>({ imageUrl, ...body }: T) => ({ ...body, imageRef: imageUrl });

/** POST /edit-ai-image. */
export const EditImageRequest = /* @__PURE__ */ (() => z
  .object({
    imageUrl: ImageReference,
    editPrompt: prompt(GENERATION_MESSAGES.enterEditInstructions),
  })
  .transform(withImageRef))();
export type EditImageRequest = z.input<typeof EditImageRequest>;

/** POST /upscale-ai-image. */
export const UpscaleImageRequest = /* @__PURE__ */ (() => z
  .object({
    imageUrl: ImageReference,
    targetResolution: z.enum(UPSCALE_RESOLUTION_NAMES).default(DEFAULT_UPSCALE_RESOLUTION),
  })
  .transform(withImageRef))();
export type UpscaleImageRequest = z.input<typeof UpscaleImageRequest>;

/**
 * The answer of the three image routes: the generation was charged, recorded and started. The work runs in the
 * generation workflow; follow it with GET /generations/{id} (or the realtime 'changed' notice for generations).
 * `imageUrl` is there only when the generation is already complete (a retried request of a finished one).
 */
export const GenerationStarted = /* @__PURE__ */ (() => z.object({
  generationId: z.string(),
  status: z.enum(GENERATION_STATUSES),
  remainingCredits: z.number().int(),
  imageUrl: z.string().optional(),
  generation: Generation,
}))();
export type GenerationStarted = z.infer<typeof GenerationStarted>;

/** GET /edit-instructions: what the configured edit engine understands (the local engine's list; empty in the cloud). */
export const EditInstructions = /* @__PURE__ */ (() => z.object({
  engine: z.enum(['local-engine', 'cloud']),
  instructions: z.array(z.object({ instruction: z.string(), effect: z.string() })),
  help: z.string(),
}))();
export type EditInstructions = z.infer<typeof EditInstructions>;

// ——— Routes (lambdas/contracts/route.ts) ———

export const generateAiImageRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/generate-ai-image',
  auth: 'user',
  publicApi: true,
  summary: 'Generate an on-model photo',
  body: GenerateImageRequest,
  idempotent: true,
  response: GenerationStarted,
  errors: { 403: ROUTE_ERRORS.notYours, 413: INLINE_IMAGE_TOO_LARGE.message },
  sample: {
    body: {
      imageData: '{{productPhotoBase64}}',
      productType: 'clothing',
      prompt: MODEL_DESCRIPTION_PLACEHOLDER.replace(/^e\.g\. /, ''),
      cameraZoom: 'auto',
      imageSize: '1k',
      promptEnhance: false,
    },
  },
}))();

export const editAiImageRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/edit-ai-image',
  auth: 'user',
  publicApi: true,
  summary: 'Edit a generated image',
  body: EditImageRequest,
  idempotent: true,
  response: GenerationStarted,
  errors: { 403: ROUTE_ERRORS.notYours, 409: ROUTE_ERRORS.imageNotReady },
  sample: { body: { imageUrl: SAMPLE_IDS.generation, editPrompt: 'background white' } },
}))();

export const upscaleAiImageRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/upscale-ai-image',
  auth: 'user',
  publicApi: true,
  summary: 'Upscale a generated image',
  body: UpscaleImageRequest,
  idempotent: true,
  response: GenerationStarted,
  errors: { 403: ROUTE_ERRORS.notYours, 409: ROUTE_ERRORS.imageNotReady },
  sample: { body: { imageUrl: SAMPLE_IDS.generation, targetResolution: '2k' } },
}))();

export const createGenerationUploadUrlRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: GENERATION_UPLOAD_URL_PATH,
  auth: 'user',
  publicApi: true,
  summary:
    'A signed URL to PUT an image to (up to 10 MB; 6 MB for a video), then pass its `imageKey` to generate-ai-image, generate-video, ' +
    'or as `imageUrl` to edit-ai-image and upscale-ai-image. PUT with exactly the `headers` answered: the URL creates the file once.',
  body: CreateUploadUrlRequest,
  response: CreateUploadUrlResponse,
  sample: { body: { fileName: 'product.png', contentType: 'image/png', sizeBytes: 204_800 } },
}))();

export const listGenerationsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/generations',
  auth: 'user',
  publicApi: true,
  summary: 'Your generations, newest first',
  query: GenerationsQuery,
  response: ListResponse(Generation),
  sample: { query: { type: 'image', limit: '10' } },
}))();

export const getGenerationRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/generations/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'One generation (poll it until complete or failed)',
  response: Generation,
  sample: { params: { id: SAMPLE_IDS.generation } },
}))();

export const getEditInstructionsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/edit-instructions',
  auth: 'public',
  summary: "What the configured edit engine understands (the edit screen's help)",
  response: EditInstructions,
}))();
