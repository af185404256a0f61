// Batch generation: one request makes a photo for every camera angle of every entry, and for an entry that asks for
// it a packshot of its marketplace preset (made by the packshot engine, charged the packshot tier). Everything is checked before
// anything is charged (each entry's image is an active item of the caller's library or one of the caller's finished
// images, checked as edit and upscale check it; the angles and colours are valid, the limits hold); then the one
// spending flow charges the whole batch in one debit, records the batch and one generations_history row per photo
// (type 'batch'), and starts the batch workflow named by the batch id. Each photo that fails is refunded on its own,
// naming the batch's debit (work.ts).
import type * as z from 'zod';
import {
  BATCH_MESSAGES,
  BATCH_PACKSHOT_TIER,
  BATCH_PHOTO_TIER,
  type Batch,
  type BatchPhoto,
  type BatchStarted,
  type GenerateBatchRequest,
  resultEntryName,
} from '../../contracts/batch.js';
import { BATCH_PACKSHOT_SHOT, PRODUCT_TYPES, SHORT_LIST_LIMIT, SIGNED_URL_SECONDS, type ProductType } from '../../contracts/catalog.js';
import { PACKSHOT_ENGINE, PACKSHOT_PRESETS } from '../../contracts/marketplace.js';
import { GenerationId } from '../../contracts/generations.js';
import { creditCount, plural } from '../../contracts/plural.js';
import { DEFAULT_IMAGE_ASPECT_RATIO } from '../../contracts/image-ratios.js';
import { badRequest, notFound } from '../../core/errors.js';
import { startExecution } from '../../core/sfn.js';
import * as batches from '../../data/batches-repo.js';
import { getActiveItem } from '../../data/clothing-repo.js';
import { createGeneration, type GenerationRecord, type GenerationSource, type ModelSnapshot } from '../../data/generations-repo.js';
import { tierCost } from '../../data/pricing-repo.js';
import { presignDownload } from '../../storage/presign.js';
import { modelSnapshot } from '../models/models.js';
import { mapConcurrency } from '../../workflows.js';
import { spend, type SpendingRequest } from '../spending.js';
import { finishedImageSource } from '../images/result-source.js';
import { toGeneration } from '../generation/service.js';
import { engineModelName } from '../generation/engine-name.js';
import { onModelTier } from '../generation/on-model-tier.js';

export const BATCH_WORKFLOW = 'batch';
export const BATCH_OPERATION = 'generate-batch';

/** What the batch workflow is started with: ids only, so the state stays small whatever the batch's size. */
export interface BatchWorkflowInput {
  userId: string;
  batchId: string;
  photoIds: string[];
  /** The Map state's MaxConcurrency (MaxConcurrencyPath). */
  maxConcurrency: number;
}

type GenerateBatch = z.output<typeof GenerateBatchRequest>;

const now = () => new Date().toISOString();

/** The image an entry's photos are made from, and the name the batch shows for it. */
interface EntrySource {
  name: string;
  source: GenerationSource;
  /** What the image shows: the library item's product type, or the one its source image was made for. */
  productType: ProductType;
}

const productTypeOf = (value: unknown): ProductType => ((PRODUCT_TYPES as readonly unknown[]).includes(value) ? (value as ProductType) : 'clothing');

/** Checks the entry's image: an active item of the caller's library, or one of the caller's finished images. */
async function entrySource(userId: string, entry: GenerateBatch['batchItems'][number], index: number): Promise<EntrySource> {
  if (entry.generationId !== undefined) {
    // The check edit and upscale make: someone else's or an unknown id is not found, an unfinished one is refused.
    const { source, generation } = await finishedImageSource(userId, entry.generationId);
    return { name: resultEntryName(generation), source, productType: productTypeOf(generation.params?.productType) };
  }
  const clothingItemId = entry.clothingItemId!;
  const item = GenerationId.safeParse(clothingItemId).success ? await getActiveItem(userId, clothingItemId) : undefined;
  if (!item) throw badRequest('CLOTHING_ITEM_NOT_FOUND', `Entry ${index + 1}: this clothing item was not found in your library.`);
  return {
    name: item.name,
    source: { kind: 'clothing-item', bucket: 'clothingImages', key: item.image_key, ref: clothingItemId },
    productType: item.product_type,
  };
}

const sourceKey = (entry: { clothingItemId?: string; generationId?: string }) =>
  entry.generationId !== undefined ? `generation:${entry.generationId}` : `clothing:${entry.clothingItemId}`;

/** POST /generate-batch. */
export async function submitBatch(request: SpendingRequest, body: GenerateBatch): Promise<BatchStarted> {
  const { userId } = request;
  // Every check before any charge: a refused batch writes nothing.
  const sources = new Map<string, EntrySource>();
  for (const [index, entry] of body.batchItems.entries()) {
    const key = sourceKey(entry);
    if (!sources.has(key)) sources.set(key, await entrySource(userId, entry, index));
  }
  // Each entry's saved model (its own, else the request's): the caller's own (someone else's is not found), each
  // looked up once and checked before any charge.
  const models = new Map<string, ModelSnapshot>();
  for (const modelId of new Set(body.batchItems.map((entry) => entry.modelId ?? body.modelId))) {
    if (modelId !== undefined) models.set(modelId, await modelSnapshot(userId, modelId));
  }
  const modelOf = (entry: GenerateBatch['batchItems'][number]) => {
    const modelId = entry.modelId ?? body.modelId;
    return modelId === undefined ? undefined : models.get(modelId)!;
  };
  const photoCount = body.batchItems.reduce((sum, entry) => sum + entry.cameraAngles.length, 0);
  // A photo's price follows its own model: with a portrait on a provider that charges more for it, the face-reference
  // tier. A packshot shows no model: it is charged the packshot tier.
  const unitCosts = await Promise.all(body.batchItems.map((entry) => tierCost(onModelTier(BATCH_PHOTO_TIER, modelOf(entry)))));
  const packshotCost = body.batchItems.some((entry) => entry.cameraAngles.includes(BATCH_PACKSHOT_SHOT)) ? await tierCost(BATCH_PACKSHOT_TIER) : 0;
  const shotCost = (entryIndex: number, shot: string) => (shot === BATCH_PACKSHOT_SHOT ? packshotCost : unitCosts[entryIndex]!);
  const totalCost = body.batchItems.reduce((sum, entry, index) => sum + entry.cameraAngles.reduce((entrySum, shot) => entrySum + shotCost(index, shot), 0), 0);
  const maxConcurrency = mapConcurrency('batch');

  const entries: batches.BatchEntryRecord[] = body.batchItems.map((entry) => {
    const model = modelOf(entry);
    return {
      ...(entry.generationId !== undefined ? { generationId: entry.generationId } : { clothingItemId: entry.clothingItemId! }),
      clothingItemName: sources.get(sourceKey(entry))!.name,
      // The entry's own choice, else what its item is.
      productType: entry.productType ?? sources.get(sourceKey(entry))!.productType,
      prompt: model?.description ?? entry.prompt,
      cameraAngles: entry.cameraAngles,
      ...(entry.cameraAngles.includes(BATCH_PACKSHOT_SHOT) ? { marketplace: entry.marketplace } : {}),
      backdrop: entry.backdrop,
      ...(model ? { model: { id: model.id, name: model.name } } : {}),
    };
  });
  // The batch's one model, when every entry has the same (the running batch shows it beside the progress).
  const entryModels = new Set(body.batchItems.map((entry) => modelOf(entry)));
  const batchModel = entryModels.size === 1 ? [...entryModels][0] : undefined;

  const spent = await spend(request, {
    cost: totalCost,
    description: `Batch generation (${photoCount} ${photoCount === 1 ? 'photo' : 'photos'})`,
    running: 'batch',
    record: async (batchId, debitId) => {
      // A replay finds the batch, which is written after all its photos.
      const existing = await batches.getBatch(userId, batchId);
      if (existing) return existing;
      const createdAt = now();
      // The photo rows first, the batch last: a batch that exists always has all its photos.
      const rows: GenerationRecord[] = [];
      entries.forEach((entry, entryIndex) =>
        entry.cameraAngles.forEach((cameraAngle) => {
          // A packshot is the packshot engine's, at its marketplace's preset (size, fill, ground, format), with no model.
          const packshot = cameraAngle === BATCH_PACKSHOT_SHOT && entry.marketplace ? { marketplace: entry.marketplace, ...PACKSHOT_PRESETS[entry.marketplace] } : undefined;
          const frame = packshot && { marketplace: packshot.marketplace, width: packshot.width, height: packshot.height, fill: packshot.fill, format: packshot.format };
          const model = packshot ? undefined : modelOf(body.batchItems[entryIndex]!);
          rows.push({
            user_id: userId,
            id: batches.photoIdFor(batchId, rows.length),
            generation_type: 'batch',
            operation: 'batch',
            ai_model: packshot ? PACKSHOT_ENGINE : engineModelName('image', body.aiModel),
            status: 'processing',
            credits_used: shotCost(entryIndex, cameraAngle),
            created_at: createdAt,
            params: {
              batchId,
              entryIndex,
              cameraAngle,
              prompt: entry.prompt,
              backdrop: packshot?.background ?? entry.backdrop,
              ...frame,
              imageSize: body.imageSize,
              aspectRatio: body.aspectRatio,
              productType: entry.productType ?? 'clothing',
              ...(entry.generationId !== undefined ? { sourceGenerationId: entry.generationId } : { clothingItemId: entry.clothingItemId! }),
              clothingItemName: entry.clothingItemName,
            },
            source: sources.get(sourceKey(entry))!.source,
            // A library item's generations_count counts its photos; a result's source counts nothing.
            ...(entry.clothingItemId !== undefined && { clothing_item_id: entry.clothingItemId }),
            // Each photo is refunded on its own against the batch's one debit, whichever path settles it.
            debit_id: debitId,
            ...(model ? { model } : {}),
          });
        }),
      );
      await inBatches(rows, 10, (row) => createGeneration(row));
      return batches.createBatch({
        user_id: userId,
        id: batchId,
        status: 'processing',
        created_at: createdAt,
        ai_model: body.aiModel,
        image_size: body.imageSize,
        aspect_ratio: body.aspectRatio,
        credits_used: totalCost,
        debit_id: debitId,
        entries,
        photo_count: photoCount,
        ...(batchModel ? { model: batchModel } : {}),
      });
    },
    start: async (batch) => {
      if (batch.status !== 'processing') return;
      const input: BatchWorkflowInput = {
        userId,
        batchId: batch.id,
        photoIds: Array.from({ length: batch.photo_count }, (_, index) => batches.photoIdFor(batch.id, index)),
        maxConcurrency,
      };
      await startExecution(BATCH_WORKFLOW, batch.id, input);
    },
  });

  return {
    batchId: spent.recordId,
    photoCount: spent.record.photo_count,
    remainingCredits: spent.balanceAfter,
    message: `Batch started: ${plural(spent.record.photo_count, 'photo')} for ${creditCount(spent.record.credits_used)}.`,
  };
}

async function inBatches<T>(values: T[], size: number, run: (value: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < values.length; start += size) await Promise.all(values.slice(start, start + size).map(run));
}

/** GET /batches/{id}: the batch with its progress, its photos and, once finished, its summary. */
export async function getBatchView(userId: string, id: string): Promise<Batch> {
  const batch = GenerationId.safeParse(id).success ? await batches.getBatch(userId, id) : undefined;
  if (!batch) throw notFound('This batch was not found.');
  const rows = await batches.listBatchPhotos(userId, id);
  const photos = await Promise.all(
    rows.map(async (row): Promise<BatchPhoto> => ({
      entryIndex: Number(row.params.entryIndex),
      clothingItemId: typeof row.params.clothingItemId === 'string' ? row.params.clothingItemId : null,
      clothingItemName: String(row.params.clothingItemName),
      cameraAngle: row.params.cameraAngle as BatchPhoto['cameraAngle'],
      generation: await toGeneration(row),
    })),
  );
  return { ...(await toBatch(batch, rows)), photos };
}

/** GET /batches: the newest 10, with progress. */
export async function listBatchViews(userId: string): Promise<Batch[]> {
  const records = await batches.listBatches(userId, SHORT_LIST_LIMIT);
  return Promise.all(records.map(async (batch) => toBatch(batch, await batches.listBatchPhotos(userId, batch.id))));
}

/** The batch's saved model, with a signed URL of its portrait: what the batch screen shows beside the progress. */
async function batchModel(model: batches.BatchRecord['model']): Promise<Batch['model']> {
  if (!model) return null;
  const portrait = model.portrait;
  const portrait_url = portrait ? await presignDownload(portrait.bucket, portrait.key, portrait.mime_type, SIGNED_URL_SECONDS) : null;
  return { id: model.id, name: model.name, portrait_url };
}

async function toBatch(batch: batches.BatchRecord, rows: GenerationRecord[]): Promise<Batch> {
  const archiveStatus = batches.archiveStatusOf(batch);
  return {
    id: batch.id,
    status: batch.status,
    created_at: batch.created_at,
    completed_at: batch.completed_at ?? null,
    credits_used: batch.credits_used,
    image_size: batch.image_size,
    aspect_ratio: batch.aspect_ratio ?? DEFAULT_IMAGE_ASPECT_RATIO,
    entries: batch.entries.map((entry) => ({
      ...entry,
      clothingItemId: entry.clothingItemId ?? null,
      generationId: entry.generationId ?? null,
      marketplace: entry.marketplace ?? null,
      // Batches stored before entries had a product type made clothing photos.
      productType: entry.productType ?? 'clothing',
      // Batches stored before entries had their own model used the batch's for every entry.
      model: entry.model ?? (batch.model ? { id: batch.model.id, name: batch.model.name } : null),
    })),
    progress: {
      done: rows.filter((row) => row.status === 'complete').length,
      failed: rows.filter((row) => row.status === 'failed').length,
      total: batch.photo_count,
    },
    summary: batch.summary ?? null,
    download: archiveStatus ? { status: archiveStatus } : null,
    model: await batchModel(batch.model),
  };
}

export function summaryOf(done: number, failed: number) {
  return {
    message:
      failed === 0
        ? `${BATCH_MESSAGES.complete}: ${done} ${done === 1 ? 'photo' : 'photos'} made.`
        : `${BATCH_MESSAGES.completeWithErrors}: ${done} made, ${failed} failed. The credits of the failed photos were refunded.`,
    successfulGenerations: done,
    failedGenerations: failed,
  };
}
