// A saved model's uploaded portrait shows one person: its faces are counted (lambdas/domain/images/faces.ts) once the
// upload is accepted as an image and before the model is written. None or several are refused with a 400 and a code
// of their own, and the upload is deleted (it can be no model's portrait). A portrait picked from one of the seller's
// results is not counted: the picture is their own on-model photo, and the preview engine's drawn figure has no face
// a detector knows.
//
// The faces are counted in the pixels the upload check decoded (acceptPortraitUpload): the picture is read and
// decoded once per save, at the net's own 512 px. Reading it again, decoding it at 1024 px and handing the net four
// times the pixels it uses made the count of a 12 MP photo take 0.70–1.07 s, against 0.43–0.61 s now
// (bench/portrait-upload.ts, 2 cores shared at load 2–4, November 2026).
import { MODEL_MESSAGES } from '../../contracts/models.js';
import { badRequest } from '../../core/errors.js';
import { log } from '../../core/log.js';
import type { DecodedPixels } from '../images/decode.js';
import { countFaces, FACE_DETECTION_SIDE } from '../images/faces.js';
import { acceptUploadedImage, type AcceptedImage } from '../images/stored-upload.js';
import type { UploadPolicy } from '../images/upload-url.js';
import { deleteObject } from '../../storage/objects.js';

/** An uploaded portrait accepted as an image (stored-upload.ts), with the pixels its check decoded for the face count. */
export async function acceptPortraitUpload(key: string, policy: UploadPolicy): Promise<AcceptedImage & { pixels: DecodedPixels }> {
  const image = await acceptUploadedImage(key, policy, { pixelsWithin: FACE_DETECTION_SIDE });
  if (!image.pixels) throw new Error(`the upload check of ${key} kept no pixels`);
  return { ...image, pixels: image.pixels };
}

/** Refuses (and deletes) an accepted portrait upload unless its pixels show exactly one face. */
export async function requireOnePerson(policy: UploadPolicy, image: AcceptedImage & { pixels: DecodedPixels }): Promise<void> {
  const startedAt = performance.now();
  const faces = await countFaces(image.pixels);
  log.info('portrait faces counted', { faces, ms: Math.round(performance.now() - startedAt) });
  if (faces === 1) return;
  await deleteObject(policy.bucket, image.key);
  throw faces === 0 ? badRequest('PORTRAIT_NO_FACE', MODEL_MESSAGES.portraitNoFace) : badRequest('PORTRAIT_SEVERAL_FACES', MODEL_MESSAGES.portraitSeveralFaces(faces));
}
