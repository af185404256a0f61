// The public API's OpenAPI 3.1 document, generated from the same zod contracts the handlers validate with (and the
// route table, which says which routes the API serves): there is no hand-written copy of a schema to drift.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { ApiErrorBody, ClothingItem, ClothingItemsQuery, CreateUploadUrlRequest, CreateUploadUrlResponse, CreditTransaction, IdempotencyKey, ListResponse, Profile, RegisterClothingItemRequest } from './api.js';
import { API_KEY_HEADER, PUBLIC_API_PREFIX } from './api-keys.js';
import { USER_LIMITS } from './catalog.js';
import { Batch, BatchDownload, BatchStarted, GenerateBatchRequest } from './batch.js';
import { EditImageRequest, GenerateImageRequest, Generation, GenerationStarted, GenerationsQuery, UpscaleImageRequest } from './generations.js';
import { CreateModelRequest, DeletedModel, SavedModel, UpdateModelRequest } from './models.js';
import { GenerateVideoRequest, GenerateVideoResponse, GetVideoUrlRequest, GetVideoUrlResponse, JobsResponse, PollOperationRequest, PollOperationResponse, VideoJob } from './video.js';

export interface PublicContract {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Spends credits: an Idempotency-Key header is required. */
  idempotent?: boolean;
  response?: z.ZodType;
  /** The success status when it is not 200 (the handler's `Reply`). */
  status?: 201;
  /** Refusals this route has beyond those every route (or every spending route) has, by status. */
  errors?: { 403?: string; 409?: string };
}

const NOT_YOURS = 'The image belongs to another account (FORBIDDEN).';
const IMAGE_NOT_READY = 'The generation has no finished image to use (IMAGE_NOT_READY).';

/** Each public-API route's contract, by handler: the same schema objects the handlers declare. */
export const PUBLIC_API_CONTRACTS: Record<string, PublicContract> = /* @__PURE__ */ (() => ({
  'get-profile': { summary: 'Your profile and credit balance', response: Profile },
  'list-credit-transactions': { summary: 'Your latest credit transactions', response: ListResponse(CreditTransaction) },
  'create-clothing-upload-url': { summary: 'A signed URL to PUT a clothing photo to', body: CreateUploadUrlRequest, response: CreateUploadUrlResponse },
  'register-clothing-item': {
    summary: 'Register an uploaded photo as a clothing item',
    body: RegisterClothingItemRequest,
    response: ClothingItem,
    status: 201,
    errors: { 403: NOT_YOURS, 409: 'This upload is already a clothing item (ALREADY_REGISTERED).' },
  },
  'list-clothing-items': { summary: 'Your clothing items', query: ClothingItemsQuery, response: ListResponse(ClothingItem) },
  'get-clothing-item': { summary: 'One clothing item', response: ClothingItem },
  'create-model-upload-url': { summary: "A signed URL to PUT a saved model's reference portrait to", body: CreateUploadUrlRequest, response: CreateUploadUrlResponse },
  'create-model': {
    summary: 'Save a model (a persona: description, optional portrait, fixed seed) to use with modelId',
    body: CreateModelRequest,
    response: SavedModel,
    status: 201,
    errors: { 403: NOT_YOURS, 409: `You have the most saved models allowed (MODEL_LIMIT_REACHED), or the picked result has no finished image (IMAGE_NOT_READY).` },
  },
  'list-models': { summary: 'Your saved models, newest first', response: ListResponse(SavedModel) },
  'update-model': { summary: "Rename a saved model or change its description", body: UpdateModelRequest, response: SavedModel },
  'delete-model': { summary: 'Delete a saved model (pictures made with it keep its name)', response: DeletedModel },
  'generate-ai-image': { summary: 'Generate an on-model photo', body: GenerateImageRequest, idempotent: true, response: GenerationStarted, errors: { 403: NOT_YOURS } },
  'edit-ai-image': { summary: 'Edit a generated image', body: EditImageRequest, idempotent: true, response: GenerationStarted, errors: { 403: NOT_YOURS, 409: IMAGE_NOT_READY } },
  'upscale-ai-image': { summary: 'Upscale a generated image', body: UpscaleImageRequest, idempotent: true, response: GenerationStarted, errors: { 403: NOT_YOURS, 409: IMAGE_NOT_READY } },
  'list-generations': { summary: 'Your generations, newest first', query: GenerationsQuery, response: ListResponse(Generation) },
  'get-generation': { summary: 'One generation (poll it until complete or failed)', response: Generation },
  'generate-video': { summary: 'Start a looping product video', body: GenerateVideoRequest, idempotent: true, response: GenerateVideoResponse, errors: { 403: NOT_YOURS, 409: IMAGE_NOT_READY } },
  'poll-operation': { summary: "A video job's progress", body: PollOperationRequest, response: PollOperationResponse },
  'get-video-url': { summary: "Signed URLs of a finished video's files", body: GetVideoUrlRequest, response: GetVideoUrlResponse, errors: { 409: 'The video is not finished yet (VIDEO_NOT_READY).' } },
  'cancel-job': { summary: 'Cancel a video job (its credits are refunded)', response: VideoJob, errors: { 409: 'The job has already finished (JOB_FINISHED).' } },
  'list-jobs': { summary: 'Your video jobs', response: JobsResponse },
  'generate-batch': {
    summary: 'Generate photos of items or your results × camera angles in one batch',
    body: GenerateBatchRequest,
    idempotent: true,
    response: BatchStarted,
    errors: { 403: NOT_YOURS, 409: IMAGE_NOT_READY },
  },
  'list-batches': { summary: 'Your batches', response: ListResponse(Batch) },
  'get-batch': { summary: 'One batch and its photos', response: Batch },
  'download-batch': {
    summary: 'A signed URL of the zip of a batch (photos + manifest.csv)',
    response: BatchDownload,
    errors: { 409: 'The batch is still running (BATCH_RUNNING), or none of its photos finished (NOTHING_TO_DOWNLOAD).' },
  },
}))();

export interface OpenApiRoute {
  method: string;
  path: string;
  handler: string;
  publicApi?: boolean;
}

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

const retryAfter = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } };

/** Every status the route answers (an integration test checks real answers against them). */
function responsesOf(contract: PublicContract): Record<string, unknown> {
  const conflicts = [
    contract.idempotent && 'The Idempotency-Key was used for another request (IDEMPOTENCY_KEY_REUSED), or the request was cut off and its credits given back (REQUEST_EXPIRED).',
    contract.errors?.[409],
  ].filter(Boolean);
  return {
    [contract.status ?? 200]: {
      description: contract.status === 201 ? 'Created' : 'OK',
      content: { 'application/json': { schema: contract.response ? schemaOf(contract.response, 'output') : { type: 'object' } } },
    },
    '400': errorResponse('The request is not valid (code VALIDATION_ERROR, IDEMPOTENCY_KEY_REQUIRED, …).'),
    '401': errorResponse('No key, or a malformed, unknown or revoked key (API_KEY_MALFORMED, API_KEY_INVALID, API_KEY_REVOKED), or a key of an account being deleted or deleted (ACCOUNT_DELETED).'),
    ...(contract.idempotent ? { '402': errorResponse('Not enough credits (INSUFFICIENT_CREDITS).') } : {}),
    ...(contract.errors?.[403] ? { '403': errorResponse(contract.errors[403]) } : {}),
    '404': errorResponse('Not found, or not yours.'),
    ...(conflicts.length ? { '409': errorResponse(conflicts.join(' ')) } : {}),
    '429': {
      ...errorResponse(
        contract.idempotent
          ? 'Too many requests for this key (RATE_LIMITED), or too much of your work is running (TOO_MANY_RUNNING); wait the Retry-After seconds.'
          : 'Too many requests for this key (RATE_LIMITED); wait the Retry-After seconds.',
      ),
      headers: retryAfter,
    },
    '500': errorResponse('Something went wrong on our side (INTERNAL_ERROR). Please try again.'),
    ...(contract.idempotent
      ? { '503': { ...errorResponse('Busy, or the work could not be started; nothing was charged (LEDGER_BUSY, GENERATION_NOT_STARTED). Retry after Retry-After.'), headers: retryAfter } }
      : {}),
  };
}

/**
 * The document for the routes the table marks `publicApi`. The default server is relative to the document itself
 * (served at <base>/v1/openapi.json, so `..` is <base>/): right on every deployment and on the twin.
 */
export function buildOpenApiDocument(routes: readonly OpenApiRoute[], serverUrl = '..'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((entry) => entry.publicApi)) {
    const contract = PUBLIC_API_CONTRACTS[route.handler];
    if (!contract) throw new Error(`no public contract for ${route.handler}`);
    const parameters: unknown[] = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (contract.query) {
      const query = schemaOf(contract.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    if (contract.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description: 'A new unique value (e.g. a UUID) per operation. A retry with the same key and body answers the first result and charges once; the same key with another body or route answers 409.',
        schema: schemaOf(IdempotencyKey, 'input'),
      });
    }
    const operation: Record<string, unknown> = {
      operationId: route.handler.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()),
      summary: contract.summary,
      security: [{ apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(contract.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(contract.body, 'input') } } } } : {}),
      responses: responsesOf(contract),
    };
    const path = `${PUBLIC_API_PREFIX}${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ModelLoop API',
      version: '1.0.0',
      description:
        'On-model photos, edits, upscales, batches and looping product videos. Authenticate with an API key from the API screen in the `x-api-key` header. ' +
        `Each key may make ${USER_LIMITS.rates.apiKey.limit} requests per ${USER_LIMITS.rates.apiKey.windowSeconds} seconds by default (429 with Retry-After beyond).`,
    },
    servers: [{ url: serverUrl }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      schemas: { Error: schemaOf(ApiErrorBody, 'output') },
    },
  };
}
