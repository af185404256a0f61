// Saved models (the models table, /studio/models): a persona a seller reuses across a whole catalogue — a name, the
// model description the generation screens take, an optional reference portrait and a seed fixed at creation, so
// every photo made with it shows the same person. Shared by the Lambda handlers and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';
import { CreateUploadUrlRequest, CreateUploadUrlResponse, ListResponse } from './api.js';
import { CLOTHING_NAME_MAX_LENGTH } from './catalog.js';
import { GenerationId, PROMPT_MAX_LENGTH } from './generations.js';

export { ModelId, ModelReference } from './generations.js';

/** At most this many saved models per user (a counter reserved in the same transaction as the write). */
export const MAX_MODELS_PER_USER = 50;
/** The folder of a user's uploaded portraits in the clothing-images bucket: {userId}/models/{upload id}.{ext}. */
export const MODEL_PORTRAIT_FOLDER = 'models';

export const MODEL_MESSAGES = {
  enterName: 'Please enter a name',
  enterDescription: 'Please enter a model description',
  confirmRights: "Please confirm that you hold the rights to this person's likeness",
  onePortrait: 'Choose one portrait: an upload or one of your results, not both',
  limitReached: `You can save at most ${MAX_MODELS_PER_USER} models. Delete one to save another.`,
  notFound: 'This model was not found.',
  portraitInUse: 'This portrait upload already belongs to a saved model. Upload the picture again to use it for another model.',
  /** An uploaded portrait must show one person (a face detector counts the faces; lambdas/domain/images/faces.ts). */
  portraitNoFace: 'No face was found in this portrait. Upload a photo that shows the person’s face.',
  portraitSeveralFaces: (faces: number) => `This portrait shows ${faces} faces. Upload a photo of one person.`,
  portraitMissing: "This model's portrait is missing. Give it a new portrait (Edit on the Models screen, or PATCH /models/{id} with a new one).",
  /** The label of the rights checkbox (what the seller confirms; the time of the confirmation is stored). */
  rightsLabel: "I hold the rights to this person's likeness and may use it for my product photos",
} as const;

/** Where a model's portrait came from: uploaded (with a rights confirmation) or one of the seller's own results. */
export const PORTRAIT_SOURCES = ['upload', 'generation'] as const;
export type PortraitSource = (typeof PORTRAIT_SOURCES)[number];

/** A saved model as the API answers it. */
export const SavedModel = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Fixed when the model is saved: providers that take a seed get it with every photo. */
  seed: z.number().int(),
  portrait_source: z.enum(PORTRAIT_SOURCES).nullable(),
  /** The result the portrait was picked from (portrait_source 'generation'). */
  portrait_generation_id: z.string().nullable(),
  /** When the seller confirmed holding the rights to the uploaded portrait's likeness (portrait_source 'upload'). */
  rights_confirmed_at: z.string().nullable(),
  /** A signed URL of the portrait, or null without one (or when its file is gone). */
  portrait_url: z.string().nullable(),
  /** The model has a portrait whose file is gone: it needs a new one before photos can keep its face. */
  portrait_missing: z.boolean(),
  /** What the card shows: the portrait, else the first picture made with the model, else null. */
  preview_url: z.string().nullable(),
  /** When the signed URLs stop working. */
  url_expires_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
}))();
export type SavedModel = z.infer<typeof SavedModel>;

const ModelName = /* @__PURE__ */ (() => z
  .string({ error: MODEL_MESSAGES.enterName })
  .trim()
  .min(1, MODEL_MESSAGES.enterName)
  .max(CLOTHING_NAME_MAX_LENGTH, `The name can be at most ${CLOTHING_NAME_MAX_LENGTH} characters`))();

const ModelDescription = /* @__PURE__ */ (() => z
  .string({ error: MODEL_MESSAGES.enterDescription })
  .trim()
  .min(1, MODEL_MESSAGES.enterDescription)
  .max(PROMPT_MAX_LENGTH, `The text can be at most ${PROMPT_MAX_LENGTH} characters`))();

/** A portrait for a model: `imageKey` (an upload, with `rightsConfirmed: true`) or `generationId` (a finished result), not both. */
const PortraitFields = /* @__PURE__ */ (() => z.object({
  imageKey: z.string().trim().min(1).max(512).optional(),
  rightsConfirmed: z.boolean().optional(),
  generationId: GenerationId.optional(),
}))();

function checkPortraitFields(body: z.output<typeof PortraitFields>, context: z.RefinementCtx): void {
  if (body.imageKey !== undefined && body.generationId !== undefined) {
    context.addIssue({ code: 'custom', message: MODEL_MESSAGES.onePortrait, path: ['imageKey'] });
  }
  if (body.imageKey !== undefined && body.rightsConfirmed !== true) {
    context.addIssue({ code: 'custom', message: MODEL_MESSAGES.confirmRights, path: ['rightsConfirmed'] });
  }
}

/**
 * POST /models. The portrait is optional: `imageKey` (a file uploaded through POST /models/upload-url, with
 * `rightsConfirmed: true`) or `generationId` (one of the caller's finished images), not both. An upload is the
 * portrait of one model only: a key another model took is refused (409 PORTRAIT_IN_USE).
 */
export const CreateModelRequest = /* @__PURE__ */ (() => z
  .object({ name: ModelName, description: ModelDescription })
  .extend(PortraitFields.shape)
  .superRefine(checkPortraitFields))();
export type CreateModelRequest = z.input<typeof CreateModelRequest>;

/**
 * PATCH /models/{id}: a new name or description, or a new portrait (the portrait fields of POST /models), e.g. for a
 * model whose portrait is missing. The seed stays: the person stays the same.
 */
export const UpdateModelRequest = /* @__PURE__ */ (() => z
  .object({ name: ModelName.optional(), description: ModelDescription.optional() })
  .extend(PortraitFields.shape)
  .superRefine(checkPortraitFields)
  .refine(
    (changes) => changes.name !== undefined || changes.description !== undefined || changes.imageKey !== undefined || changes.generationId !== undefined,
    'Nothing to change',
  ))();
export type UpdateModelRequest = z.input<typeof UpdateModelRequest>;


/** DELETE /models/{id}. */
export const DeletedModel = /* @__PURE__ */ (() => z.object({ deleted: z.literal(true), id: z.string() }))();

// ——— Routes (lambdas/contracts/route.ts) ———

export const createModelUploadUrlRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/models/upload-url',
  auth: 'user',
  publicApi: true,
  summary: "A signed URL to PUT a saved model's reference portrait to",
  body: CreateUploadUrlRequest,
  response: CreateUploadUrlResponse,
  sample: { body: { fileName: 'portrait.jpg', contentType: 'image/jpeg', sizeBytes: 96_000 } },
}))();

export const createModelRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/models',
  auth: 'user',
  publicApi: true,
  summary: 'Save a model (a persona: description, optional portrait, fixed seed) to use with modelId',
  body: CreateModelRequest,
  response: SavedModel,
  status: 201,
  errors: {
    400: 'The uploaded portrait shows no face (PORTRAIT_NO_FACE) or several (PORTRAIT_SEVERAL_FACES): a portrait is of one person.',
    403: ROUTE_ERRORS.notYours,
    409: `You have the most saved models allowed (MODEL_LIMIT_REACHED), the upload is another model's portrait (PORTRAIT_IN_USE), or the picked result has no finished image (IMAGE_NOT_READY).`,
  },
  sample: { body: { name: 'Maya', description: 'woman in her late twenties, warm brown skin, shoulder-length curly black hair, relaxed smile' } },
}))();

export const listModelsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/models',
  auth: 'user',
  publicApi: true,
  summary: 'Your saved models, newest first',
  response: ListResponse(SavedModel),
}))();

export const updateModelRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'PATCH',
  path: '/models/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'Rename a saved model, change its description, or give it a new portrait',
  body: UpdateModelRequest,
  response: SavedModel,
  errors: {
    400: 'The uploaded portrait shows no face (PORTRAIT_NO_FACE) or several (PORTRAIT_SEVERAL_FACES): a portrait is of one person.',
    403: ROUTE_ERRORS.notYours,
    409: 'The upload is another model\'s portrait (PORTRAIT_IN_USE), or the picked result has no finished image (IMAGE_NOT_READY).',
  },
  sample: { params: { id: SAMPLE_IDS.model }, body: { name: 'Maya (spring)' } },
}))();

export const deleteModelRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'DELETE',
  path: '/models/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'Delete a saved model (pictures made with it keep its name)',
  response: DeletedModel,
  sample: { params: { id: SAMPLE_IDS.model } },
}))();
