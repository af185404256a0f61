// The generation workflow's Process task (lib/workflows/generation.asl.json): runs the provider through its port and
// stores the result and its thumbnail. It decodes pictures (sharp, the AI adapters); the Fail task, which does not,
// is failure.ts, so that function carries neither.
import sharp from 'sharp';
import * as z from 'zod';
import { BATCH_CAMERA_ANGLES, CAMERA_ZOOMS, IMAGE_SIZES, PRODUCT_TYPES, UPSCALE_RESOLUTIONS } from '../../contracts/catalog.js';
import { IMAGE_SIZE_NAMES, UPSCALE_RESOLUTION_NAMES } from '../../contracts/generations.js';
import { log } from '../../core/log.js';
import { emitMetrics, MetricUnit } from '../../core/metrics.js';
import { traced } from '../../core/tracing.js';
import { incrementGenerationsCount } from '../../data/clothing-repo.js';
import * as repo from '../../data/generations-repo.js';
import { recordFirstResult } from '../../data/models-repo.js';
import { aspectRatioOf, seedOfDescription, type ImageInput, type ImageOutput, type ModelPersona, type Size } from '../../providers/ports.js';
import { getProviders, type Providers } from '../../providers/registry.js';
import { readObject, writeObject } from '../../storage/objects.js';
import { detectImageType } from '../image-files.js';
import { resultKey, thumbnailKey } from './files.js';
import { GENERATION_ERROR, GenerationTaskError, generationTaskErrors } from './failure.js';
import type { GenerationWorkflowInput } from './service.js';

const OnModelParams = z.object({
  productType: z.enum(PRODUCT_TYPES),
  prompt: z.string(),
  cameraZoom: z.enum(CAMERA_ZOOMS),
  imageSize: z.enum(IMAGE_SIZE_NAMES),
  promptEnhance: z.boolean(),
});
const EditParams = z.object({ editPrompt: z.string() });
/** A batch photo: one camera angle of one entry, on the entry's backdrop colour. */
export const BatchPhotoParams = z.object({
  batchId: z.string(),
  entryIndex: z.number().int(),
  cameraAngle: z.enum(BATCH_CAMERA_ANGLES),
  prompt: z.string(),
  backdrop: z.string(),
  imageSize: z.enum(IMAGE_SIZE_NAMES),
});

/** The zoom that a camera angle asks a cloud model for; the local engine also composes by the angle itself. */
const ZOOM_OF_ANGLE: Record<(typeof BATCH_CAMERA_ANGLES)[number], (typeof CAMERA_ZOOMS)[number]> = {
  Product: 'close-up',
  Front: 'auto',
  Back: 'auto',
  'Full Body': 'full-body',
  'Mid-shot': 'mid-shot',
  Side: 'auto',
};
const UpscaleParams = z.object({ targetResolution: z.enum(UPSCALE_RESOLUTION_NAMES) });

const THUMBNAIL_WIDTH = 360;

// Configuration errors surface on the first task, with the variable's name, as for every function.
let providers: Providers | undefined;
const ports = () => (providers ??= getProviders());

/** Process: makes the picture, stores it (and a thumbnail), completes the row; counts the library item's use. */
export async function processGeneration({ userId, generationId }: GenerationWorkflowInput): Promise<{ status: string }> {
  const generation = await repo.getGeneration(userId, generationId);
  if (!generation) throw new Error(`Generation ${generationId} does not exist`);
  // Failed or cancelled meanwhile, or completed by an earlier attempt of this task.
  if (generation.status !== 'processing') return { status: generation.status };

  const input = await readSource(generation);
  let output: ImageOutput;
  const startedAt = performance.now();
  try {
    output = await traced(`provider ${generation.operation}`, { userId, generationId }, () => run(generation, input));
  } catch (error) {
    throw generationTaskErrors.fromProvider(error);
  } finally {
    emitMetrics({ ProviderLatency: Math.round(performance.now() - startedAt) }, { type: generation.operation }, MetricUnit.Milliseconds);
  }
  const size = requestedSize(generation);
  const picture = size ? await exactly(output, size) : output;

  const key = resultKey(userId, generationId);
  const thumbnail = thumbnailKey(userId, generationId);
  await writeObject('results', key, picture.bytes, picture.mimeType);
  await writeObject('results', thumbnail, await sharp(picture.bytes).resize({ width: THUMBNAIL_WIDTH }).webp({ quality: 80 }).toBuffer(), 'image/webp');

  const completed = await repo.completeGeneration(userId, generationId, {
    result_key: key,
    thumbnail_key: thumbnail,
    result_content_type: picture.mimeType,
    width: picture.width,
    height: picture.height,
    ai_model: picture.model,
  });
  if (completed.changed) emitMetrics({ GenerationsCompleted: 1 }, { type: generation.operation });
  if (completed.changed && generation.clothing_item_id) {
    await incrementGenerationsCount(userId, generation.clothing_item_id);
  }
  // The card of a model without a portrait shows the first picture made with it.
  if (completed.changed && generation.model) await recordFirstResult(userId, generation.model.id, key);
  return { status: completed.generation?.status ?? 'complete' };
}

async function readSource(generation: repo.GenerationRecord): Promise<ImageInput> {
  const source = generation.source;
  const image = source && (await readImage(source.bucket, source.key));
  if (!image) throw new GenerationTaskError(GENERATION_ERROR.badSource, 'The input image is missing or not an image');
  return image;
}

/**
 * Who wears the product: the saved model the request named (its description, seed and portrait, as they were at the
 * request), or the person the description makes, with the seed those words give.
 */
async function personaOf(generation: repo.GenerationRecord, description: string): Promise<ModelPersona> {
  const model = generation.model;
  if (!model) return { description, seed: seedOfDescription(description) };
  const referenceImage = model.portrait && (await readImage(model.portrait.bucket, model.portrait.key));
  if (model.portrait && !referenceImage) log.warn('saved model portrait unreadable; the description alone is used', { modelId: model.id });
  return { description: model.description, seed: model.seed, modelId: model.id, ...(referenceImage ? { referenceImage } : {}) };
}

async function readImage(bucket: repo.GenerationSource['bucket'], key: string): Promise<ImageInput | undefined> {
  const bytes = await readObject(bucket, key).catch(() => undefined);
  const mimeType = bytes && detectImageType(bytes);
  return bytes && mimeType ? { bytes, mimeType } : undefined;
}

async function run(generation: repo.GenerationRecord, image: ImageInput): Promise<ImageOutput> {
  switch (generation.operation) {
    case 'on-model': {
      const params = OnModelParams.parse(generation.params);
      return ports().onModelImage.generate({
        product: image,
        productType: params.productType,
        model: await personaOf(generation, params.prompt),
        cameraZoom: params.cameraZoom,
        size: IMAGE_SIZES[params.imageSize],
        aspectRatio: aspectRatioOf(IMAGE_SIZES[params.imageSize]),
        promptEnhance: params.promptEnhance,
      });
    }
    case 'batch': {
      const params = BatchPhotoParams.parse(generation.params);
      return ports().onModelImage.generate({
        product: image,
        productType: 'clothing',
        model: await personaOf(generation, params.prompt),
        cameraZoom: ZOOM_OF_ANGLE[params.cameraAngle],
        size: IMAGE_SIZES[params.imageSize],
        aspectRatio: aspectRatioOf(IMAGE_SIZES[params.imageSize]),
        promptEnhance: false,
        angle: params.cameraAngle,
        backdrop: params.backdrop,
      });
    }
    case 'edit':
      return ports().edit.edit({ image, instruction: EditParams.parse(generation.params).editPrompt });
    case 'upscale': {
      const { width, height } = UPSCALE_RESOLUTIONS[UpscaleParams.parse(generation.params).targetResolution];
      return ports().upscale.upscale({ image, size: { width, height } });
    }
    default:
      throw new Error(`The generation workflow does not make ${generation.operation} generations`);
  }
}

/** The size the specification promises for the operation: on-model and upscale have one, an edit keeps its own. */
function requestedSize(generation: repo.GenerationRecord): Size | undefined {
  if (generation.operation === 'on-model') return IMAGE_SIZES[OnModelParams.parse(generation.params).imageSize];
  if (generation.operation === 'batch') return IMAGE_SIZES[BatchPhotoParams.parse(generation.params).imageSize];
  if (generation.operation === 'upscale') {
    const { width, height } = UPSCALE_RESOLUTIONS[UpscaleParams.parse(generation.params).targetResolution];
    return { width, height };
  }
  return undefined;
}

/** The local engine answers the exact size; a cloud model that answers another is resampled to it (Lanczos). */
async function exactly(output: ImageOutput, size: Size): Promise<ImageOutput> {
  if (output.width === size.width && output.height === size.height) return output;
  log.warn('provider output resampled to the requested size', { model: output.model, from: [output.width, output.height], to: size });
  const bytes = await sharp(output.bytes).resize({ ...size, fit: 'cover', kernel: 'lanczos3' }).png().toBuffer();
  return { ...output, bytes, ...size };
}
