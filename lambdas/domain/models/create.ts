// Saving a model, and giving one a new portrait. An uploaded portrait is accepted only if it really is an image within
// the limit (the checks of a clothing photo; images/stored-upload.ts decodes it), only with the seller's confirmation
// that they hold the rights to the person's likeness, stored with its time, and only for one model: the upload's key
// is marked as that model's by a conditional write first, as a clothing item takes its upload, so a second model can
// never name (and later lose) the same file. A portrait picked from one of the seller's finished results needs no
// confirmation: the picture is their own generation. The user's model count is reserved in the same transaction as
// the write, so the cap holds under concurrent requests.
import type * as z from 'zod';
import { MAX_MODELS_PER_USER, MODEL_MESSAGES, MODEL_PORTRAIT_FOLDER, type CreateModelRequest, type SavedModel, type UpdateModelRequest } from '../../contracts/models.js';
import { badRequest, conflict } from '../../core/errors.js';
import * as repo from '../../data/models-repo.js';
import { deleteObject } from '../../storage/objects.js';
import { seedOfDescription } from '../../providers/ports.js';
import { finishedImageSource } from '../images/result-source.js';
import { warmFaceDetector } from '../images/faces.js';
import { acceptPortraitUpload, requireOnePerson } from './portrait-faces.js';
import { ownUploadId } from '../images/upload-url.js';
import { MODEL_PORTRAIT_UPLOADS, modelNotFound, newModelSeed, releasePortrait, toSavedModel, updateModel } from './models.js';

type CreateModel = z.output<typeof CreateModelRequest>;
type UpdateModel = z.output<typeof UpdateModelRequest>;
type PortraitRequest = Pick<CreateModel, 'imageKey' | 'rightsConfirmed' | 'generationId'>;

interface ChosenPortrait {
  portrait: NonNullable<repo.ModelRecord['portrait']>;
  rightsConfirmedAt?: string;
  /** The person of a picked result: its saved model's seed, or the seed its description gave it. */
  seed?: number;
}

/** The portrait a request names, checked and (for an upload) marked as model `modelId`'s; undefined when it names none. */
async function choosePortrait(userId: string, modelId: string, body: PortraitRequest, fallbackPrompt: string, now: string): Promise<ChosenPortrait | undefined> {
  if (body.imageKey !== undefined) {
    // The schema requires the confirmation with an upload; checked again here, where the portrait is accepted.
    if (body.rightsConfirmed !== true) throw badRequest('RIGHTS_NOT_CONFIRMED', MODEL_MESSAGES.confirmRights);
    // The face detector opens (once per process) while the upload is claimed and checked.
    warmFaceDetector();
    const uploadId = ownUploadId(userId, body.imageKey, MODEL_PORTRAIT_FOLDER);
    if (!(await repo.claimPortrait(userId, uploadId, modelId, now))) throw conflict('PORTRAIT_IN_USE', MODEL_MESSAGES.portraitInUse);
    const image = await acceptPortraitUpload(body.imageKey, MODEL_PORTRAIT_UPLOADS);
    await requireOnePerson(MODEL_PORTRAIT_UPLOADS, image);
    return { portrait: { bucket: MODEL_PORTRAIT_UPLOADS.bucket, key: image.key, mime_type: image.mimeType, source: 'upload' }, rightsConfirmedAt: now };
  }
  if (body.generationId !== undefined) {
    const { generation } = await finishedImageSource(userId, body.generationId);
    const prompt = typeof generation.params.prompt === 'string' ? generation.params.prompt : fallbackPrompt;
    return {
      portrait: { bucket: 'results', key: generation.result_key!, mime_type: 'image/png', source: 'generation', generation_id: generation.id },
      seed: generation.model?.seed ?? seedOfDescription(prompt),
    };
  }
  return undefined;
}

/** POST /models. */
export async function createModel(userId: string, body: CreateModel, now = new Date()): Promise<SavedModel> {
  const createdAt = now.toISOString();
  const id = repo.newModelId(now.getTime());
  const chosen = await choosePortrait(userId, id, body, body.description, createdAt);

  const record: repo.ModelRecord = {
    user_id: userId,
    id,
    name: body.name,
    description: body.description,
    seed: chosen?.seed ?? newModelSeed(),
    ...(chosen ? { portrait: chosen.portrait } : {}),
    ...(chosen?.rightsConfirmedAt ? { rights_confirmed_at: chosen.rightsConfirmedAt } : {}),
    created_at: createdAt,
    updated_at: createdAt,
  };
  const outcome = await repo.putModel(record, MAX_MODELS_PER_USER);
  if ('limitReached' in outcome) {
    // The upload is marked as this model's: no other model can name it, so nothing else loses it.
    if (chosen?.portrait.source === 'upload') await deleteObject(chosen.portrait.bucket, chosen.portrait.key);
    throw conflict('MODEL_LIMIT_REACHED', MODEL_MESSAGES.limitReached);
  }
  return toSavedModel(outcome.created);
}

/** PATCH /models/{id}: new words, or a new portrait (the one it had is released: deleted unless another model names it). */
export async function changeModel(userId: string, id: string, body: UpdateModel, now = new Date()): Promise<SavedModel> {
  const words = { name: body.name, description: body.description };
  if (body.imageKey === undefined && body.generationId === undefined) return updateModel(userId, id, words);
  const current = await repo.getModel(userId, id);
  if (!current) throw modelNotFound();
  const chosen = (await choosePortrait(userId, id, body, current.description, now.toISOString()))!;
  const before = await repo.replacePortrait(userId, id, chosen.portrait, chosen.rightsConfirmedAt, now.toISOString());
  if (!before) throw modelNotFound();
  if (before.portrait && before.portrait.key !== chosen.portrait.key) await releasePortrait(userId, before.portrait);
  return words.name !== undefined || words.description !== undefined ? updateModel(userId, id, words) : toSavedModel((await repo.getModel(userId, id)) ?? current);
}
