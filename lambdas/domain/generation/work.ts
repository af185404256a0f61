// The generation workflow's Process task (lib/workflows/generation.asl.json): runs the provider through its port and
// stores the result and its thumbnail. It decodes pictures (sharp, the AI adapters); the Fail task, which does not,
// is failure.ts, so that function carries neither.
import sharp from 'sharp';
import * as z from 'zod';
import { BATCH_CAMERA_ANGLES, BATCH_PACKSHOT_SHOT, BATCH_SHOTS, CAMERA_ZOOMS, faceReferenceTierApplies, PRODUCT_TYPES } from '../../contracts/catalog.js';
import { IMAGE_ASPECT_RATIOS, imageSizeFor, resultSizeProblem, upscaleSizeFor } from '../../contracts/image-ratios.js';
import { IMAGE_SIZE_NAMES, UPSCALE_RESOLUTION_NAMES } from '../../contracts/generations.js';
import { log } from '../../core/log.js';
import { emitMetrics, MetricUnit } from '../../core/metrics.js';
import { traced } from '../../core/tracing.js';
import { incrementGenerationsCount } from '../../data/clothing-repo.js';
import * as repo from '../../data/generations-repo.js';
import { recordFirstResult } from '../../data/models-repo.js';
import { aspectRatioOf, seedOfDescription, type ImageInput, type ImageOutput, type ModelPersona, type ProviderJobMemory, type Size } from '../../providers/ports.js';
import { getProviders, type Providers } from '../../providers/registry.js';
import { readProviderChoice } from '../../providers/config.js';
import { readObject } from '../../storage/objects.js';
import { detectImageType } from '../images/file-type.js';
import { GENERATION_ERROR, GenerationTaskError, generationTaskErrors } from './failure.js';
import { PACKSHOT_ENGINE } from '../../contracts/marketplace.js';
import { isPreviewModel } from '../../contracts/preview.js';
import { withDigitalSourceType, type DigitalSourceType } from '../images/provenance.js';
import { complianceReport } from '../marketplace/compliance.js';
import { makePackshot, packshotJobOf, PackshotFrameParams, type PackshotJob } from '../marketplace/packshot-job.js';
import { endGenerationPlace } from './places.js';
import { storeResultFiles } from './result-store.js';
import type { GenerationWorkflowInput } from './service.js';

const OnModelParams = z.object({
  productType: z.enum(PRODUCT_TYPES),
  prompt: z.string(),
  cameraZoom: z.enum(CAMERA_ZOOMS),
  imageSize: z.enum(IMAGE_SIZE_NAMES),
  /** Rows stored before ratios were offered are 9:16. */
  aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).optional(),
  promptEnhance: z.boolean(),
});
const EditParams = z.object({ editPrompt: z.string() });
/**
 * A batch photo: one camera angle of one entry, on the entry's backdrop colour, or the entry's packshot ('Packshot',
 * with its marketplace preset's frame).
 */
export const BatchPhotoParams = z.object({
  batchId: z.string(),
  entryIndex: z.number().int(),
  cameraAngle: z.enum(BATCH_SHOTS),
  /** A packshot's frame (its backdrop is the preset's ground); absent on camera angles. */
  ...PackshotFrameParams.omit({ background: true }).partial().shape,
  prompt: z.string(),
  backdrop: z.string(),
  imageSize: z.enum(IMAGE_SIZE_NAMES),
  aspectRatio: z.enum(IMAGE_ASPECT_RATIOS).optional(),
  /** Photos stored before batch entries had a product type are clothing. */
  productType: z.enum(PRODUCT_TYPES).default('clothing'),
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

/** The packshot a packshot row or a batch's 'Packshot' photo makes (its frame recorded with it; packshot-job.ts). */
function packshotJob(generation: repo.GenerationRecord): PackshotJob {
  const job = packshotJobOf(generation);
  if (!job) throw new GenerationTaskError(GENERATION_ERROR.unsupported, 'This packshot has no marketplace preset');
  return job;
}

// Configuration errors surface on the first task, with the variable's name, as for every function.
let providers: Providers | undefined;
const ports = () => (providers ??= getProviders());

/** Process: makes the picture, stores it (and a thumbnail), completes the row; counts the library item's use. */
export async function processGeneration({ userId, generationId }: GenerationWorkflowInput): Promise<{ status: string }> {
  const generation = await repo.getGeneration(userId, generationId);
  if (!generation) throw new Error(`Generation ${generationId} does not exist`);
  // Failed or cancelled meanwhile, or completed by an earlier attempt of this task (whose place is given back now, if
  // that attempt stopped before it did).
  if (generation.status !== 'processing') {
    await endGenerationPlace(generation);
    return { status: generation.status };
  }

  const input = await readSource(generation);
  const size = await requestedSize(generation, input);
  let output: ImageOutput;
  const startedAt = performance.now();
  try {
    output = await traced(`provider ${generation.operation}`, { userId, generationId }, () => run(generation, input, size));
  } catch (error) {
    throw generationTaskErrors.fromProvider(error);
  } finally {
    emitMetrics({ ProviderLatency: Math.round(performance.now() - startedAt) }, { type: generation.operation }, MetricUnit.Milliseconds);
  }
  const exact = size ? await exactly(output, size) : output;
  // The rules hold for every result: what could not be known before the charge (crop to the product, a cloud edit)
  // fails here, with its size, and is refunded.
  const sizeProblem = resultSizeProblem(exact);
  if (sizeProblem) throw new GenerationTaskError(GENERATION_ERROR.unsupported, sizeProblem);
  // Every picture carries its provenance (IPTC DigitalSourceType in XMP), and is measured against every marketplace.
  const picture = { ...exact, bytes: await withDigitalSourceType(exact.bytes, exact.mimeType, digitalSourceTypeOf(generation.operation, exact.model), `ModelLoop ${exact.model}`) };
  const compliance = await complianceReport(picture.bytes, output.cutout);

  const files = await storeResultFiles(userId, generationId, picture);

  const completed = await repo.completeGeneration(userId, generationId, {
    ...files,
    result_content_type: picture.mimeType,
    width: picture.width,
    height: picture.height,
    ai_model: picture.model,
    not_rendered: picture.notRendered,
    compliance,
  });
  if (completed.changed) emitMetrics({ GenerationsCompleted: 1 }, { type: generation.operation });
  if (completed.changed && generation.clothing_item_id) {
    await incrementGenerationsCount(userId, generation.clothing_item_id);
  }
  if (completed.generation) await endGenerationPlace(completed.generation);
  // The card of a model without a portrait shows the first picture made with it.
  if (completed.changed && generation.model) await recordFirstResult(userId, generation.model.id, files.result_key);
  return { status: completed.generation?.status ?? 'complete' };
}

async function readSource(generation: repo.GenerationRecord): Promise<ImageInput> {
  const source = generation.source;
  const image = source && (await readImage(source.bucket, source.key));
  if (!image) throw new GenerationTaskError(GENERATION_ERROR.badSource, 'The input image is missing or not an image');
  return image;
}

/**
 * The paid job of this generation, kept on its row: an attempt that timed out or crashed while the provider worked
 * leaves the job's id behind, and the retry waits for that job instead of starting (and paying for) another.
 */
function providerJobOf(generation: repo.GenerationRecord): ProviderJobMemory {
  return {
    started: generation.provider_job,
    remember: async (jobId) => {
      await repo.recordProviderJob(generation.user_id, generation.id, jobId);
    },
  };
}

/**
 * Who wears the product: the saved model the request named (its description, seed and portrait, as they were at the
 * request), or the person the description makes, with the seed those words give.
 */
async function personaOf(generation: repo.GenerationRecord, description: string): Promise<ModelPersona> {
  const model = generation.model;
  if (!model) return { description, seed: seedOfDescription(description) };
  const referenceImage = model.portrait && (await readImage(model.portrait.bucket, model.portrait.key));
  if (model.portrait && !referenceImage) {
    // Charged the face-reference tier for a portrait that is gone: a picture without it is not what was paid for, so
    // the generation fails and is refunded in full. Where a portrait costs nothing extra, the words alone do.
    if (faceReferenceTierApplies(readProviderChoice(process.env, 'PROVIDER_IMAGE'))) {
      throw new GenerationTaskError(GENERATION_ERROR.badSource, "The saved model's reference portrait is missing");
    }
    log.warn('saved model portrait unreadable; the description alone is used', { modelId: model.id });
  }
  return { description: model.description, seed: model.seed, modelId: model.id, ...(referenceImage ? { referenceImage } : {}) };
}

async function readImage(bucket: repo.GenerationSource['bucket'], key: string): Promise<ImageInput | undefined> {
  const bytes = await readObject(bucket, key).catch(() => undefined);
  const mimeType = bytes && detectImageType(bytes);
  return bytes && mimeType ? { bytes, mimeType } : undefined;
}

/** `size` is the generation's requestedSize (every operation but edit has one). */
async function run(generation: repo.GenerationRecord, image: ImageInput, size: Size | undefined): Promise<ImageOutput> {
  switch (generation.operation) {
    case 'on-model': {
      const params = OnModelParams.parse(generation.params);
      return ports().onModelImage.generate({
        product: image,
        productType: params.productType,
        model: await personaOf(generation, params.prompt),
        cameraZoom: params.cameraZoom,
        size: size!,
        aspectRatio: aspectRatioOf(size!),
        promptEnhance: params.promptEnhance,
      }, providerJobOf(generation));
    }
    case 'batch': {
      const params = BatchPhotoParams.parse(generation.params);
      // The entry's packshot: the packshot engine, as POST /generate-packshot makes it (no contact shadow).
      if (params.cameraAngle === BATCH_PACKSHOT_SHOT) return makePackshot(generation, packshotJob(generation), image.bytes);
      return ports().onModelImage.generate({
        product: image,
        productType: params.productType,
        model: await personaOf(generation, params.prompt),
        cameraZoom: ZOOM_OF_ANGLE[params.cameraAngle],
        size: size!,
        aspectRatio: aspectRatioOf(size!),
        promptEnhance: false,
        angle: params.cameraAngle,
        backdrop: params.backdrop,
      }, providerJobOf(generation));
    }
    case 'edit':
      return ports().edit.edit({ image, instruction: EditParams.parse(generation.params).editPrompt });
    case 'upscale':
      return ports().upscale.upscale({ image, size: size! });
    case 'packshot':
      // Not a provider's work: the packshot engine (cutout network or colour key) runs here, the same on both hosts.
      return makePackshot(generation, packshotJob(generation), image.bytes);
    default:
      throw new Error(`The generation workflow does not make ${generation.operation} generations`);
  }
}

/**
 * The exact size the operation makes: on-model pictures and batch photos their size in their ratio, an upscale its
 * resolution in the source's own ratio; an edit keeps its own.
 */
async function requestedSize(generation: repo.GenerationRecord, source: ImageInput): Promise<Size | undefined> {
  if (generation.operation === 'on-model') {
    const params = OnModelParams.parse(generation.params);
    return imageSizeFor(params.imageSize, params.aspectRatio);
  }
  if (generation.operation === 'batch') {
    const params = BatchPhotoParams.parse(generation.params);
    if (params.cameraAngle === BATCH_PACKSHOT_SHOT) {
      const { width, height } = packshotJob(generation).frame;
      return { width, height };
    }
    return imageSizeFor(params.imageSize, params.aspectRatio);
  }
  if (generation.operation === 'packshot') {
    const { width, height } = packshotJob(generation).frame;
    return { width, height };
  }
  if (generation.operation === 'upscale') {
    // Upright (EXIF orientation applied), as the source's size was checked before the charge.
    const { width, height } = (await sharp(source.bytes).metadata()).autoOrient;
    if (!width || !height) throw new GenerationTaskError(GENERATION_ERROR.badSource, 'The input image has no size');
    return upscaleSizeFor(UpscaleParams.parse(generation.params).targetResolution, { width, height });
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

/**
 * The IPTC DigitalSourceType of a result (lambdas/domain/images/provenance.ts): a generative provider's on-model photo
 * is trained algorithmic media and its edit a composite with it; the preview engine's pictures and a packshot are
 * composites with synthetic elements; an upscale is an algorithmic enhancement.
 */
export function digitalSourceTypeOf(operation: repo.GenerationRecord['operation'], model: string): DigitalSourceType {
  if (operation === 'upscale') return 'algorithmicallyEnhanced';
  if (operation === 'packshot' || model.startsWith(PACKSHOT_ENGINE) || isPreviewModel(model)) return 'compositeSynthetic';
  if (operation === 'edit') return 'compositeWithTrainedAlgorithmicMedia';
  return 'trainedAlgorithmicMedia';
}
