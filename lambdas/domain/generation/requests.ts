// The three image requests of spec §7 as generation drafts: what each records, costs and starts from.
import { createHash } from 'node:crypto';
import { IMAGE_SIZES, UPSCALE_RESOLUTIONS } from '../../contracts/catalog.js';
import type * as z from 'zod';
import type {
  EditImageRequest,
  GenerateImageRequest,
  GenerationStarted,
  UpscaleImageRequest,
} from '../../contracts/generations.js';
import type { Caller } from '../credits.js';
import { submitGeneration, type Submission } from './service.js';
import { clothingItemSource, inlineSource, ownImageSource, uploadedSource } from './sources.js';

export interface RequestContext {
  caller: Caller;
  idempotencyKey: string;
  /** The caller's balance as the request began. */
  balance: number;
}

// The bodies as the HTTP wrapper hands them over: parsed, trimmed, defaults applied.
type GenerateImage = z.output<typeof GenerateImageRequest>;
type EditImage = z.output<typeof EditImageRequest>;
type UpscaleImage = z.output<typeof UpscaleImageRequest>;

/** The ai_model a row shows until the provider names the model that really made it. */
const EDIT_MODEL = 'image-edit';
const UPSCALE_MODEL = 'image-upscale';

function submission(context: RequestContext, body: GenerateImage | EditImage | UpscaleImage): Submission {
  return {
    userId: context.caller.userId,
    idempotencyKey: context.idempotencyKey,
    requestHash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
    balance: context.balance,
  };
}

/** POST /generate-ai-image: the product on a model, at the exact size asked for. */
export function generateOnModelImage(context: RequestContext, body: GenerateImage): Promise<GenerationStarted> {
  const userId = context.caller.userId;
  const size = IMAGE_SIZES[body.imageSize];
  return submitGeneration(submission(context, body), {
    generationType: 'image',
    operation: 'on-model',
    aiModel: body.aiModel,
    tier: 'image-generation',
    description: `Image generation (${body.imageSize.toUpperCase()}, ${size.width}×${size.height})`,
    params: {
      productType: body.productType,
      prompt: body.prompt,
      cameraZoom: body.cameraZoom,
      imageSize: body.imageSize,
      promptEnhance: body.promptEnhance,
      clothingItemId: body.clothingItemId ?? null,
    },
    resolveSource: (generationId) =>
      body.clothingItemId !== undefined
        ? clothingItemSource(userId, body.clothingItemId)
        : body.imageKey !== undefined
          ? uploadedSource(userId, body.imageKey)
          : inlineSource(userId, generationId, body.imageData ?? ''),
  });
}

/** POST /edit-ai-image: one of the caller's images changed by an instruction. */
export function editImage(context: RequestContext, body: EditImage): Promise<GenerationStarted> {
  return submitGeneration(submission(context, body), {
    generationType: 'image',
    operation: 'edit',
    aiModel: EDIT_MODEL,
    tier: 'image-edit',
    description: 'Image edit',
    params: { editPrompt: body.editPrompt, imageUrl: body.imageUrl },
    resolveSource: () => ownImageSource(context.caller.userId, body.imageUrl),
  });
}

/** POST /upscale-ai-image: one of the caller's images at exactly 2K, 4K or 8K. */
export function upscaleImage(context: RequestContext, body: UpscaleImage): Promise<GenerationStarted> {
  const resolution = UPSCALE_RESOLUTIONS[body.targetResolution];
  return submitGeneration(submission(context, body), {
    generationType: 'image',
    operation: 'upscale',
    aiModel: UPSCALE_MODEL,
    tier: resolution.tier,
    description: `Upscale to ${body.targetResolution.toUpperCase()} (${resolution.width}×${resolution.height})`,
    params: { targetResolution: body.targetResolution, imageUrl: body.imageUrl },
    resolveSource: () => ownImageSource(context.caller.userId, body.imageUrl),
  });
}
