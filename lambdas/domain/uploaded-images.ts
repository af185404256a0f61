// The upload path of user images: a presigned PUT for a key the server chooses in the caller's own folder, then a
// check of what was really stored. A file that is not a JPEG, PNG or WebP by its bytes, is over the limit, or does
// not decode is deleted, whatever the client declared. Clothing items use it now; generation uploads reuse it.
import { randomBytes } from 'node:crypto';
import type { CreateUploadUrlRequest, CreateUploadUrlResponse, ImageMimeType } from '../contracts/api.js';
import { CLOTHING_MAX_BYTES, GENERATION_UPLOAD_MAX_BYTES, VIDEO_SOURCE_MAX_BYTES } from '../contracts/catalog.js';
import {
  checkImageFile,
  declaredImageType,
  EMPTY_FILE,
  fileTooLarge,
  IMAGE_EXTENSIONS,
  INVALID_FILE_TYPE,
  INVALID_IMAGE,
  type ImageFileProblem,
} from '../contracts/upload-rules.js';
import { AppError, forbidden } from '../core/errors.js';
import { log } from '../core/log.js';
import type { BucketName } from '../data/tables.js';
import { deleteObject, objectSize, presignUpload, readObject } from '../storage/objects.js';
import { checkImageBytes, detectImageType, MAGIC_BYTES_LENGTH, MAX_IMAGE_PIXELS } from './image-files.js';

/** The most any route accepts from an upload in each bucket: above it, a file is of no use to anyone. */
const LARGEST_UPLOAD: Record<BucketName, number> = {
  clothingImages: CLOTHING_MAX_BYTES,
  results: Math.max(GENERATION_UPLOAD_MAX_BYTES, VIDEO_SOURCE_MAX_BYTES),
};

export interface UploadPolicy {
  bucket: BucketName;
  maxBytes: number;
  urlSeconds: number;
}

export interface AcceptedImage {
  key: string;
  mimeType: ImageMimeType;
  sizeBytes: number;
  width: number;
  height: number;
}

/** {userId}/{timestamp}-{random}.{ext}: the only key shape an upload can have; {timestamp}-{random} is its id. */
const UPLOAD_ID = String.raw`\d{13}-[0-9a-f]{16}`;
const KEY_PATTERN = new RegExp(`^([^/]+)/(${UPLOAD_ID})\\.(${Object.values(IMAGE_EXTENSIONS).join('|')})$`);
const UPLOAD_ID_PATTERN = new RegExp(`^${UPLOAD_ID}$`);

export const isUploadId = (value: string) => UPLOAD_ID_PATTERN.test(value);

/** A refused file as the API answers it. */
export const refusal = (problem: ImageFileProblem) => new AppError(400, problem.code, problem.description);
const uploadMissing = () =>
  new AppError(404, 'UPLOAD_NOT_FOUND', 'The uploaded file was not found. Please upload the image again.');

/** Checks the declared file with the specification's rules, then signs a PUT for a new key in the caller's folder. */
export async function createImageUpload(
  userId: string,
  file: CreateUploadUrlRequest,
  policy: UploadPolicy,
  now = Date.now(),
): Promise<CreateUploadUrlResponse> {
  const problem = checkImageFile({ name: file.fileName, type: file.contentType, size: file.sizeBytes }, policy.maxBytes);
  if (problem) throw refusal(problem);
  const contentType = declaredImageType(file.contentType, file.fileName)!;
  const imageKey = newUploadKey(userId, contentType, now);
  const upload = await presignUpload(policy.bucket, imageKey, { contentType, sizeBytes: file.sizeBytes }, policy.urlSeconds);
  return {
    uploadUrl: upload.url,
    headers: upload.headers,
    imageKey,
    expiresAt: new Date(now + policy.urlSeconds * 1000).toISOString(),
  };
}

/** A new key in the caller's folder, of the one shape uploads have (so every route that takes an upload takes it). */
export function newUploadKey(userId: string, mimeType: ImageMimeType, now = Date.now()): string {
  return `${userId}/${now}-${randomBytes(8).toString('hex')}.${IMAGE_EXTENSIONS[mimeType]}`;
}

/**
 * The id of an upload (its file name without extension, {timestamp}-{random}) when the key is in the caller's folder.
 * A key in another user's folder is refused (403) and left alone; a key of any other shape was never handed out (400).
 */
export function ownUploadId(userId: string, key: string): string {
  const match = KEY_PATTERN.exec(key);
  if (!match) throw new AppError(400, 'INVALID_IMAGE_KEY', 'This is not the key of an uploaded image.');
  if (match[1] !== userId) throw forbidden('FORBIDDEN', 'This image does not belong to your account.');
  return match[2]!;
}

/**
 * Reads what was stored under an upload key and accepts it only if it is a whole JPEG, PNG or WebP within the size
 * limit: first the real size, then the magic bytes, then a full decode. Anything else is refused with the
 * specification's message, and deleted unless it is only too large for this route. The key must already be known to
 * be the caller's.
 */
export async function acceptUploadedImage(key: string, policy: UploadPolicy): Promise<AcceptedImage> {
  const sizeBytes = await objectSize(policy.bucket, key);
  if (sizeBytes === undefined) throw uploadMissing();
  const outcome = await inspect(key, sizeBytes, policy);
  if ('code' in outcome) {
    // A file over this route's limit may be within another's (an image route takes 10 MB, a video 6 MB) and may
    // already feed a generation: it is refused, not deleted. Only what no route accepts is removed.
    if (outcome.code !== 'FILE_TOO_LARGE' || sizeBytes > LARGEST_UPLOAD[policy.bucket]) {
      await deleteObject(policy.bucket, key);
      log.info('uploaded file refused and deleted', { bucket: policy.bucket, key, sizeBytes, code: outcome.code });
    }
    throw refusal(outcome);
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
  return inspectImageBytes(await readObject(bucket, key), maxBytes);
}

/**
 * The checks of an upload on bytes already in hand (an image imported from a link): within the limit, a JPEG, PNG
 * or WebP by its magic bytes, at most MAX_IMAGE_PIXELS, and pixel data that decodes to the end.
 */
export async function inspectImageBytes(bytes: Buffer, maxBytes: number): Promise<ImageFileProblem | Omit<AcceptedImage, 'key' | 'sizeBytes'>> {
  if (bytes.length === 0) return EMPTY_FILE;
  if (bytes.length > maxBytes) return fileTooLarge(bytes.length, maxBytes);
  const check = await checkImageBytes(bytes);
  if (check.ok) return { mimeType: check.mimeType, width: check.width, height: check.height };
  return check.reason === 'not-an-image' ? INVALID_FILE_TYPE : check.reason === 'too-many-pixels' ? TOO_MANY_PIXELS : INVALID_IMAGE;
}
