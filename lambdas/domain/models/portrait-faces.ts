// A saved model's uploaded portrait shows one person: its faces are counted (lambdas/domain/images/faces.ts) once the
// upload is accepted as an image and before the model is written. None or several are refused with a 400 and a code
// of their own, and the upload is deleted (it can be no model's portrait). A portrait picked from one of the seller's
// results is not counted: the picture is their own on-model photo, and the preview engine's drawn figure has no face
// a detector knows.
import { MODEL_MESSAGES } from '../../contracts/models.js';
import { badRequest } from '../../core/errors.js';
import { log } from '../../core/log.js';
import type { BucketName } from '../../data/tables.js';
import { deleteObject, readObject } from '../../storage/objects.js';
import { countFaces } from '../images/faces.js';

export async function requireOnePerson(bucket: BucketName, key: string): Promise<void> {
  const startedAt = performance.now();
  const faces = await countFaces(await readObject(bucket, key));
  log.info('portrait faces counted', { faces, ms: Math.round(performance.now() - startedAt) });
  if (faces === 1) return;
  await deleteObject(bucket, key);
  throw faces === 0 ? badRequest('PORTRAIT_NO_FACE', MODEL_MESSAGES.portraitNoFace) : badRequest('PORTRAIT_SEVERAL_FACES', MODEL_MESSAGES.portraitSeveralFaces(faces));
}
