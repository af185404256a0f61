// Uploads of user images, up to the moment the file is stored: the policy of each kind of upload, the presigned PUT
// for a key the server chooses in the caller's own folder, and the rule that a key must be the caller's. Nothing here
// reads or decodes the file, so routes that only hand out upload URLs or look items up stay free of the image
// decoder; checking what was stored is lambdas/domain/images/stored-upload.ts.
import { randomBytes } from 'node:crypto';
import type { CreateUploadUrlRequest, CreateUploadUrlResponse, ImageMimeType } from '../../contracts/api.js';
import { checkImageFile, declaredImageType, IMAGE_EXTENSIONS, type ImageFileProblem } from '../../contracts/upload-rules.js';
import { AppError, forbidden } from '../../core/errors.js';
import type { BucketName } from '../../data/tables.js';
import { presignUpload, signedUrlExpiresAt } from '../../storage/presign.js';

export interface UploadPolicy {
  bucket: BucketName;
  maxBytes: number;
  urlSeconds: number;
  /** A sub-folder of the caller's folder ({userId}/{folder}/…), for uploads that only one route takes. */
  folder?: string;
}

/**
 * {userId}/{timestamp}-{random}.{ext} (or {userId}/{folder}/… for a policy with a folder): the only key shapes an
 * upload can have; {timestamp}-{random} is its id.
 */
const UPLOAD_ID = String.raw`\d{13}-[0-9a-f]{16}`;
const keyPattern = (folder?: string) =>
  new RegExp(`^([^/]+)/${folder ? `${folder}/` : ''}(${UPLOAD_ID})\\.(${Object.values(IMAGE_EXTENSIONS).join('|')})$`);
const KEY_PATTERN = keyPattern();
const UPLOAD_ID_PATTERN = new RegExp(`^${UPLOAD_ID}$`);

export const isUploadId = (value: string) => UPLOAD_ID_PATTERN.test(value);

/** A refused file as the API answers it: 400 with the problem's code and the description people read. */
export const uploadRefusal = (problem: ImageFileProblem) => new AppError(400, problem.code, problem.description);

/** Checks the declared file with the upload rules (contracts/upload-rules.ts), then signs a PUT for a new key in the caller's folder. */
export async function createImageUpload(
  userId: string,
  file: CreateUploadUrlRequest,
  policy: UploadPolicy,
  now = Date.now(),
): Promise<CreateUploadUrlResponse> {
  const problem = checkImageFile({ name: file.fileName, type: file.contentType, size: file.sizeBytes }, policy.maxBytes);
  if (problem) throw uploadRefusal(problem);
  const contentType = declaredImageType(file.contentType, file.fileName)!;
  const imageKey = newUploadKey(userId, contentType, now, policy.folder);
  const upload = await presignUpload(policy.bucket, imageKey, { contentType, sizeBytes: file.sizeBytes }, policy.urlSeconds);
  return {
    uploadUrl: upload.url,
    headers: upload.headers,
    imageKey,
    // The earlier of the URL's own expiry and its signing credentials' (temporary in a Lambda).
    expiresAt: await signedUrlExpiresAt(policy.urlSeconds, now),
  };
}

/** A new key in the caller's folder, of the one shape uploads have (so every route that takes an upload takes it). */
export function newUploadKey(userId: string, mimeType: ImageMimeType, now = Date.now(), folder?: string): string {
  return `${userId}/${folder ? `${folder}/` : ''}${now}-${randomBytes(8).toString('hex')}.${IMAGE_EXTENSIONS[mimeType]}`;
}

/**
 * The id of an upload (its file name without extension, {timestamp}-{random}) when the key is in the caller's folder.
 * A key in another user's folder is refused (403) and left alone; a key of any other shape was never handed out (400).
 */
export function ownUploadId(userId: string, key: string, folder?: string): string {
  const match = (folder ? keyPattern(folder) : KEY_PATTERN).exec(key);
  if (!match) throw new AppError(400, 'INVALID_IMAGE_KEY', 'This is not the key of an uploaded image.');
  if (match[1] !== userId) throw forbidden('FORBIDDEN', 'This image does not belong to your account.');
  return match[2]!;
}
