// Saved models: the caller's personas with signed URLs of their pictures, renames, deletes, the portrait upload URL,
// and the persona a generation request names (`modelId`). Saving a model with an uploaded portrait decodes the file and
// lives in create.ts, so these routes never load the image decoder; files are signed and deleted by presigned
// requests, so neither these routes nor the batch and generation routes that import this carry the S3 client.
import { randomInt } from 'node:crypto';
import type { CreateUploadUrlRequest, CreateUploadUrlResponse } from '../../contracts/api.js';
import { CLOTHING_MAX_BYTES, SIGNED_URL_SECONDS, UPLOAD_URL_SECONDS } from '../../contracts/catalog.js';
import type { ModelSnapshot } from '../../data/generations-repo.js';
import { MODEL_MESSAGES, MODEL_PORTRAIT_FOLDER, type SavedModel } from '../../contracts/models.js';
import { conflict, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import * as repo from '../../data/models-repo.js';
import { deleteStoredObject } from '../../storage/object-deletion.js';
import { storedSize } from '../../storage/object-transfer.js';
import { presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { createImageUpload, type UploadPolicy } from '../images/upload-url.js';

/** Uploaded portraits: the clothing photos' bucket and checks, in the caller's own models folder. */
export const MODEL_PORTRAIT_UPLOADS: UploadPolicy = {
  bucket: 'clothingImages',
  maxBytes: CLOTHING_MAX_BYTES,
  urlSeconds: UPLOAD_URL_SECONDS,
  folder: MODEL_PORTRAIT_FOLDER,
};

export const modelNotFound = () => notFound(MODEL_MESSAGES.notFound);

/** A seed for a new model: fixed for its life, so providers that take one repeat the same person. */
export const newModelSeed = () => randomInt(0, 0x7fffffff);

export function createModelUpload(userId: string, file: CreateUploadUrlRequest): Promise<CreateUploadUrlResponse> {
  return createImageUpload(userId, file, MODEL_PORTRAIT_UPLOADS);
}

export async function listModels(userId: string): Promise<SavedModel[]> {
  const models = await repo.listModels(userId);
  return Promise.all(models.map(toSavedModel));
}

export async function getModel(userId: string, id: string): Promise<SavedModel> {
  return toSavedModel(await ownModel(userId, id));
}

export async function updateModel(userId: string, id: string, changes: { name?: string; description?: string }): Promise<SavedModel> {
  const model = await repo.updateModelDetails(userId, id, changes);
  if (!model) throw modelNotFound();
  return toSavedModel(model);
}

/** Deletes the model and its uploaded portrait; pictures made with it keep their history (the model's name). */
export async function deleteModel(userId: string, id: string): Promise<{ deleted: true; id: string }> {
  const model = await repo.deleteModel(userId, id);
  if (!model) throw modelNotFound();
  if (model.portrait) await releasePortrait(userId, model.portrait);
  return { deleted: true, id };
}

/**
 * A portrait no longer used by the model that had it: an uploaded file is deleted unless another of the user's models
 * still names it (models saved before an upload was marked as one model's could share a key). A picked result stays:
 * it is a picture of the seller's history.
 */
export async function releasePortrait(userId: string, portrait: NonNullable<repo.ModelRecord['portrait']>): Promise<void> {
  if (portrait.source !== 'upload') return;
  const namedElsewhere = (await repo.listModels(userId)).some((other) => other.portrait?.bucket === portrait.bucket && other.portrait.key === portrait.key);
  if (namedElsewhere) {
    log.info('portrait kept: another model names it', { key: portrait.key });
    return;
  }
  await deleteStoredObject(portrait.bucket, portrait.key);
}

/** Whether the model names a portrait whose file is gone (a failed look-up counts as present: never a false alarm). */
async function portraitMissing(model: repo.ModelRecord): Promise<boolean> {
  if (!model.portrait) return false;
  try {
    return (await storedSize(model.portrait.bucket, model.portrait.key)) === undefined;
  } catch (error) {
    log.warn('portrait look-up failed', { modelId: model.id, error });
    return false;
  }
}

/** The caller's model `id`: someone else's, or an unknown id, is not found. */
export async function ownModel(userId: string, id: string): Promise<repo.ModelRecord> {
  const model = await repo.getModel(userId, id);
  if (!model) throw modelNotFound();
  return model;
}

/** What a generation stores of the saved model it was asked for (generations-repo's ModelSnapshot). */
export async function modelSnapshot(userId: string, id: string): Promise<ModelSnapshot> {
  const model = await ownModel(userId, id);
  // A photo that should keep a face it can no longer read is refused before any charge (FASHN's face tier costs more).
  if (await portraitMissing(model)) throw conflict('PORTRAIT_MISSING', MODEL_MESSAGES.portraitMissing);
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    seed: model.seed,
    ...(model.portrait ? { portrait: { bucket: model.portrait.bucket, key: model.portrait.key, mime_type: model.portrait.mime_type } } : {}),
  };
}

/** A model as the API answers it: signed URLs of its portrait and of what its card shows. */
export async function toSavedModel(model: repo.ModelRecord): Promise<SavedModel> {
  const url_expires_at = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
  const portrait_missing = await portraitMissing(model);
  const portrait_url = model.portrait && !portrait_missing
    ? await presignDownload(model.portrait.bucket, model.portrait.key, model.portrait.mime_type, SIGNED_URL_SECONDS)
    : null;
  const preview_url =
    portrait_url ?? (model.first_result_key ? await presignDownload('results', model.first_result_key, 'image/png', SIGNED_URL_SECONDS) : null);
  return {
    id: model.id,
    user_id: model.user_id,
    name: model.name,
    description: model.description,
    seed: model.seed,
    portrait_source: model.portrait?.source ?? null,
    portrait_generation_id: model.portrait?.generation_id ?? null,
    rights_confirmed_at: model.rights_confirmed_at ?? null,
    portrait_url,
    portrait_missing,
    preview_url,
    url_expires_at,
    created_at: model.created_at,
    updated_at: model.updated_at,
  };
}
