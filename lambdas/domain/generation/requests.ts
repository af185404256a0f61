// The three image requests (generate-ai-image, edit-ai-image, upscale-ai-image) as generation drafts: what each records, costs and starts from.
import { UPSCALE_RESOLUTIONS } from '../../contracts/catalog.js';
import { imageSizeFor, resultSizeProblem, upscaleRefusal, upscaleSizeFor } from '../../contracts/image-ratios.js';
import type * as z from 'zod';
import type {
  EditImageRequest,
  GenerateImageRequest,
  GenerationStarted,
  UpscaleImageRequest,
} from '../../contracts/generations.js';
import { badRequest } from '../../core/errors.js';
import { readProviderChoice } from '../../providers/config.js';
import { editedSizes, parseEditInstructions, type EditStep } from '../../providers/local-engine/edit-instructions.js';
import { ProviderError } from '../../providers/ports.js';
import { modelSnapshot } from '../models/models.js';
import type { SpendingRequest } from '../spending.js';
import { engineModelName } from './engine-name.js';
import { onModelTier } from './on-model-tier.js';
import { derivedTitle, UPLOADED_PHOTO_TITLE } from './titles.js';
import { submitGeneration } from './service.js';
import { checkedSourceSize, clothingItemSource, inlineSource, ownImageSource, placed, productParam, uploadedSource, type ResolvedSource } from '../images/source.js';

// The bodies as the HTTP wrapper hands them over: parsed, trimmed, defaults applied.
type GenerateImage = z.output<typeof GenerateImageRequest>;
type EditImage = z.output<typeof EditImageRequest>;
type UpscaleImage = z.output<typeof UpscaleImageRequest>;

/** The ai_model a row shows until the provider names the model that really made it. */
const EDIT_MODEL = 'image-edit';
const UPSCALE_MODEL = 'image-upscale';

/** The source, refused before any charge when it is too small to work from (checkedSourceSize). */
async function smallNoMore(resolved: ResolvedSource): Promise<ResolvedSource> {
  await checkedSourceSize(resolved);
  return resolved;
}

/** A result the rules refuse (too small a side, beyond 1:10..10:1) is refused before any charge, with its size. */
function refuseResultSize(size: { width: number; height: number }): void {
  const problem = resultSizeProblem(size);
  if (problem) throw badRequest('RESULT_SIZE_NOT_ALLOWED', problem);
}

/** POST /generate-ai-image: the product on a model, at the exact size asked for. */
export async function generateOnModelImage(spending: SpendingRequest, body: GenerateImage): Promise<GenerationStarted> {
  const userId = spending.userId;
  const size = imageSizeFor(body.imageSize, body.aspectRatio);
  // A saved model's description makes the person; someone else's model is not found, before anything is stored.
  const model = body.modelId !== undefined ? await modelSnapshot(userId, body.modelId) : undefined;
  const item = body.clothingItemId !== undefined ? await smallNoMore(await clothingItemSource(userId, body.clothingItemId)) : undefined;
  const source = item
    ? placed(item)
    : body.imageKey !== undefined
      ? placed(await smallNoMore(await uploadedSource(userId, body.imageKey)))
      : await inlineSource(userId, body.imageData ?? '');
  return submitGeneration(spending, {
    generationType: 'image',
    operation: 'on-model',
    aiModel: engineModelName('image', body.aiModel),
    tier: onModelTier('image-generation', model),
    description: `Image generation (${body.imageSize.toUpperCase()} ${body.aspectRatio}, ${size.width}×${size.height})`,
    params: {
      productType: body.productType,
      prompt: model?.description ?? body.prompt ?? '',
      cameraZoom: body.cameraZoom,
      imageSize: body.imageSize,
      aspectRatio: body.aspectRatio,
      promptEnhance: body.promptEnhance,
      clothingItemId: body.clothingItemId ?? null,
      // The item's name as it was: what the pickers call the picture (titles.ts), whatever the item is renamed to.
      ...(item?.title ? { clothingItemName: item.title } : {}),
      modelId: model?.id ?? null,
    },
    source,
    ...(model ? { model } : {}),
  });
}

/**
 * The preview engine understands a documented set of edit instructions: anything else is refused here, before any
 * charge, with the engine's one-line message (a 400 UNSUPPORTED_EDIT; no row, nothing to refund). A cloud model takes
 * free text, and refuses in the workflow as providers do. Undefined for a cloud model.
 */
function previewEditSteps(editPrompt: string): EditStep[] | undefined {
  if (readProviderChoice(process.env, 'PROVIDER_EDIT') !== 'local') return undefined;
  try {
    return parseEditInstructions(editPrompt);
  } catch (error) {
    if (error instanceof ProviderError) throw badRequest('UNSUPPORTED_EDIT', error.message);
    throw error;
  }
}

/**
 * POST /edit-ai-image: one of the caller's images changed by an instruction. The preview engine's result size is
 * known from the instruction (crops, turns), so each step's size is held to the rules before the charge; what depends
 * on the pixels (crop to the product, a cloud model's answer) is held to them on the result, and refunded.
 */
export async function editImage(spending: SpendingRequest, body: EditImage): Promise<GenerationStarted> {
  const steps = previewEditSteps(body.editPrompt);
  const resolved = await ownImageSource(spending.userId, body.imageRef);
  const size = await checkedSourceSize(resolved);
  if (steps) editedSizes(steps, size).forEach(refuseResultSize);
  const source = placed(resolved);
  return submitGeneration(spending, {
    generationType: 'image',
    operation: 'edit',
    aiModel: engineModelName('edit', EDIT_MODEL),
    tier: 'image-edit',
    description: 'Image edit',
    // params are answered as they are stored: the request's own field name.
    params: { editPrompt: body.editPrompt, imageUrl: body.imageRef, ...productParam(resolved) },
    source,
    title: derivedTitle(resolved.title ?? UPLOADED_PHOTO_TITLE, 'Edited'),
  });
}

/** POST /upscale-ai-image: one of the caller's images at 2K, 4K or 8K, in the source's own ratio (upscaleSizeFor). */
export async function upscaleImage(spending: SpendingRequest, body: UpscaleImage): Promise<GenerationStarted> {
  const resolution = UPSCALE_RESOLUTIONS[body.targetResolution];
  const resolved = await ownImageSource(spending.userId, body.imageRef);
  // The size it will really get, in the source's ratio, is held to the rules before the charge; a target no larger
  // than the source is refused, never charged for the same pixels.
  const sourceSize = await checkedSourceSize(resolved);
  const notLarger = upscaleRefusal(body.targetResolution, sourceSize);
  if (notLarger) throw badRequest('UPSCALE_NOT_LARGER', notLarger);
  refuseResultSize(upscaleSizeFor(body.targetResolution, sourceSize));
  const source = placed(resolved);
  return submitGeneration(spending, {
    generationType: 'image',
    operation: 'upscale',
    aiModel: engineModelName('upscale', UPSCALE_MODEL),
    tier: resolution.tier,
    description: `Upscale to ${body.targetResolution.toUpperCase()}`,
    params: { targetResolution: body.targetResolution, imageUrl: body.imageRef, ...productParam(resolved) },
    source,
    title: derivedTitle(resolved.title ?? UPLOADED_PHOTO_TITLE, `Upscaled to ${body.targetResolution.toUpperCase()}`),
  });
}
