// The second half of an upload (the first is lambdas/domain/uploads.ts): a check of what was really stored. A file
// that is not a JPEG, PNG or WebP by its bytes, is over the limit, or does not decode is deleted, whatever the client
// declared. Clothing items, generation sources and video sources use it. It decodes, so only the functions that
// accept uploads import it.
import type { ImageMimeType } from '../contracts/api.js';
import { EMPTY_FILE, fileTooLarge, INVALID_FILE_TYPE, INVALID_IMAGE, type ImageFileProblem } from '../contracts/upload-rules.js';
import { AppError } from '../core/errors.js';
import { log } from '../core/log.js';
import { deleteObject, objectSize, readObject } from '../storage/objects.js';
import { checkImageBytes } from './image-decoding.js';
import { detectImageType, MAGIC_BYTES_LENGTH, MAX_IMAGE_PIXELS } from './image-files.js';
import { uploadRefusal, type UploadPolicy } from './uploads.js';

export interface AcceptedImage {
  key: string;
  mimeType: ImageMimeType;
  sizeBytes: number;
  width: number;
  height: number;
}

const uploadMissing = () =>
  new AppError(404, 'UPLOAD_NOT_FOUND', 'The uploaded file was not found. Please upload the image again.');

/**
 * Reads what was stored under an upload key and accepts it only if it is a whole JPEG, PNG or WebP within the size
 * limit: first the real size, then the magic bytes, then a full decode. Anything else is deleted and refused with
 * the specification's message. The key must already be known to be the caller's (ownUploadId).
 */
export async function acceptUploadedImage(key: string, policy: UploadPolicy): Promise<AcceptedImage> {
  const sizeBytes = await objectSize(policy.bucket, key);
  if (sizeBytes === undefined) throw uploadMissing();
  const outcome = await inspect(key, sizeBytes, policy);
  if ('code' in outcome) {
    await deleteObject(policy.bucket, key);
    log.info('uploaded file refused and deleted', { bucket: policy.bucket, key, sizeBytes, code: outcome.code });
    throw uploadRefusal(outcome);
  }
  return { key, sizeBytes, ...outcome };
}

const TOO_MANY_PIXELS: ImageFileProblem = {
  ...INVALID_IMAGE,
  description: `This image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. Please upload a smaller image.`,
};

async function inspect(key: string, sizeBytes: number, { bucket, maxBytes }: UploadPolicy): Promise<ImageFileProblem | Omit<AcceptedImage, 'key' | 'sizeBytes'>> {
  if (sizeBytes === 0) return EMPTY_FILE;
  if (sizeBytes > maxBytes) return fileTooLarge(sizeBytes, maxBytes);
  // The first bytes settle most refusals without reading a whole file.
  if (!detectImageType(await readObject(bucket, key, Math.min(MAGIC_BYTES_LENGTH, sizeBytes)))) return INVALID_FILE_TYPE;
  const bytes = await readObject(bucket, key);
  if (bytes.length > maxBytes) return fileTooLarge(bytes.length, maxBytes);
  const check = await checkImageBytes(bytes);
  if (check.ok) return { mimeType: check.mimeType, width: check.width, height: check.height };
  return check.reason === 'not-an-image' ? INVALID_FILE_TYPE : check.reason === 'too-many-pixels' ? TOO_MANY_PIXELS : INVALID_IMAGE;
}
