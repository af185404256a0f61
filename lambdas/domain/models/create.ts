// Saving a model. An uploaded portrait is accepted only if it really is an image within the limit (the checks of a
// clothing photo; images/stored-upload.ts decodes it) and only with the seller's confirmation that they hold the rights to
// the person's likeness, stored with its time. A portrait picked from one of the seller's finished results needs no
// confirmation: the picture is their own generation. The user's model count is reserved in the same transaction as
// the write, so the cap holds under concurrent requests.
import type * as z from 'zod';
import { MAX_MODELS_PER_USER, MODEL_MESSAGES, MODEL_PORTRAIT_FOLDER, type CreateModelRequest, type SavedModel } from '../../contracts/models.js';
import { badRequest, conflict } from '../../core/errors.js';
import * as repo from '../../data/models-repo.js';
import { deleteObject } from '../../storage/objects.js';
import { seedOfDescription } from '../../providers/ports.js';
import { finishedImageSource } from '../images/result-source.js';
import { acceptUploadedImage } from '../images/stored-upload.js';
import { ownUploadId } from '../images/upload-url.js';
import { MODEL_PORTRAIT_UPLOADS, newModelSeed, toSavedModel } from './models.js';

type CreateModel = z.output<typeof CreateModelRequest>;

/** POST /models. */
export async function createModel(userId: string, body: CreateModel, now = new Date()): Promise<SavedModel> {
  const createdAt = now.toISOString();
  let portrait: repo.ModelRecord['portrait'];
  let seed = newModelSeed();
  let rightsConfirmedAt: string | undefined;

  if (body.imageKey !== undefined) {
    // The schema requires the confirmation with an upload; checked again here, where the portrait is accepted.
    if (body.rightsConfirmed !== true) throw badRequest('RIGHTS_NOT_CONFIRMED', MODEL_MESSAGES.confirmRights);
    ownUploadId(userId, body.imageKey, MODEL_PORTRAIT_FOLDER);
    const image = await acceptUploadedImage(body.imageKey, MODEL_PORTRAIT_UPLOADS);
    portrait = { bucket: MODEL_PORTRAIT_UPLOADS.bucket, key: image.key, mime_type: image.mimeType, source: 'upload' };
    rightsConfirmedAt = createdAt;
  } else if (body.generationId !== undefined) {
    const { generation } = await finishedImageSource(userId, body.generationId);
    portrait = {
      bucket: 'results',
      key: generation.result_key!,
      mime_type: 'image/png',
      source: 'generation',
      generation_id: generation.id,
    };
    // The person of that picture: its saved model's seed, or the seed its description gave it.
    const prompt = typeof generation.params.prompt === 'string' ? generation.params.prompt : body.description;
    seed = generation.model?.seed ?? seedOfDescription(prompt);
  }

  const record: repo.ModelRecord = {
    user_id: userId,
    id: repo.newModelId(now.getTime()),
    name: body.name,
    description: body.description,
    seed,
    ...(portrait ? { portrait } : {}),
    ...(rightsConfirmedAt ? { rights_confirmed_at: rightsConfirmedAt } : {}),
    created_at: createdAt,
    updated_at: createdAt,
  };
  const outcome = await repo.putModel(record, MAX_MODELS_PER_USER);
  if ('limitReached' in outcome) {
    // The upload was for this model only: nothing else can use it.
    if (portrait?.source === 'upload') await deleteObject(portrait.bucket, portrait.key);
    throw conflict('MODEL_LIMIT_REACHED', MODEL_MESSAGES.limitReached);
  }
  return toSavedModel(outcome.created);
}
