// The second half of an upload (the first is upload-url.ts): a check of what was really stored. A file
// that is not a JPEG, PNG or WebP by its bytes, is over the limit, or does not decode is refused, whatever the client
// declared, and deleted unless another route could still use it. Clothing items, generation sources, video sources
// and product-link imports use it. It decodes, so only the functions that accept uploads import it.
import type { ImageMimeType } from '../../contracts/api.js';
import { CLOTHING_MAX_BYTES, GENERATION_UPLOAD_MAX_BYTES, VIDEO_SOURCE_MAX_BYTES } from '../../contracts/catalog.js';
import { EMPTY_FILE, fileTooLarge, INVALID_FILE_TYPE, INVALID_IMAGE, type ImageFileProblem } from '../../contracts/upload-rules.js';
import { AppError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import type { BucketName } from '../../data/tables.js';
import { deleteObject, keepUpload, objectSize, readObject } from '../../storage/objects.js';
import { checkImageBytes, type CheckOptions, type DecodedPixels } from './decode.js';
import { detectImageType, MAGIC_BYTES_LENGTH, MAX_IMAGE_PIXELS } from './file-type.js';
import { uploadRefusal, type UploadPolicy } from './upload-url.js';

export interface AcceptedImage {
  key: string;
  mimeType: ImageMimeType;
  sizeBytes: number;
  width: number;
  height: number;
  /** The picture's pixels, upright, when the caller asked the check to keep them (CheckOptions.pixelsWithin). */
  pixels?: DecodedPixels;
  /** Its thumbnail (WebP) when the caller asked the check to make one (CheckOptions.thumbnailCovering). */
  thumbnail?: Buffer;
}

/** The most any route accepts from an upload in each bucket: above it, a file is of no use to anyone. */
const LARGEST_UPLOAD: Record<BucketName, number> = {
  clothingImages: CLOTHING_MAX_BYTES,
  results: Math.max(GENERATION_UPLOAD_MAX_BYTES, VIDEO_SOURCE_MAX_BYTES),
};

const uploadMissing = () =>
  new AppError(404, 'UPLOAD_NOT_FOUND', 'The uploaded file was not found. Please upload the image again.');

/**
 * Reads what was stored under an upload key and accepts it only if it is a whole JPEG, PNG or WebP within the size
 * limit: first the real size, then the magic bytes, then a full decode. Anything else is refused with the
 * upload rules' message (contracts/upload-rules.ts), and deleted unless it is only too large for this route. The key must already be known to
 * be the caller's (ownUploadId). With `check.pixelsWithin`, the accepted image carries the pixels its decode made.
 */
export async function acceptUploadedImage(key: string, policy: UploadPolicy, check: CheckOptions = {}): Promise<AcceptedImage> {
  const sizeBytes = await objectSize(policy.bucket, key);
  if (sizeBytes === undefined) throw uploadMissing();
  const outcome = await inspect(key, sizeBytes, policy, check);
  if ('code' in outcome) {
    // A file over this route's limit may be within another's (an image route takes 10 MB, a video 6 MB) and may
    // already feed a generation: it is refused, not deleted. Only what no route accepts is removed.
    if (outcome.code !== 'FILE_TOO_LARGE' || sizeBytes > LARGEST_UPLOAD[policy.bucket]) {
      await deleteObject(policy.bucket, key);
      log.info('uploaded file refused and deleted', { bucket: policy.bucket, key, sizeBytes, code: outcome.code });
    }
    throw uploadRefusal(outcome);
  }
  // Taken by a route (a clothing item, a generation's or a video's source): no longer an abandoned upload.
  await keepUpload(policy.bucket, key);
  return { key, sizeBytes, ...outcome };
}

const TOO_MANY_PIXELS: ImageFileProblem = {
  ...INVALID_IMAGE,
  description: `This image has more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. Please upload a smaller image.`,
};

async function inspect(
  key: string,
  sizeBytes: number,
  { bucket, maxBytes }: UploadPolicy,
  check: CheckOptions,
): Promise<ImageFileProblem | Omit<AcceptedImage, 'key' | 'sizeBytes'>> {
  if (sizeBytes === 0) return EMPTY_FILE;
  if (sizeBytes > maxBytes) return fileTooLarge(sizeBytes, maxBytes);
  // The first bytes settle most refusals without reading a whole file.
  if (!detectImageType(await readObject(bucket, key, Math.min(MAGIC_BYTES_LENGTH, sizeBytes)))) return INVALID_FILE_TYPE;
  return inspectImageBytes(await readObject(bucket, key), maxBytes, check);
}

/**
 * The checks of an upload on bytes already in hand (an image imported from a link): within the limit, a JPEG, PNG
 * or WebP by its magic bytes, at most MAX_IMAGE_PIXELS, and pixel data that decodes to the end.
 */
export async function inspectImageBytes(bytes: Buffer, maxBytes: number, options: CheckOptions = {}): Promise<ImageFileProblem | Omit<AcceptedImage, 'key' | 'sizeBytes'>> {
  if (bytes.length === 0) return EMPTY_FILE;
  if (bytes.length > maxBytes) return fileTooLarge(bytes.length, maxBytes);
  const check = await checkImageBytes(bytes, options);
  if (check.ok) {
    const { mimeType, width, height, pixels, thumbnail } = check;
    return { mimeType, width, height, ...(pixels ? { pixels } : {}), ...(thumbnail ? { thumbnail } : {}) };
  }
  return check.reason === 'not-an-image' ? INVALID_FILE_TYPE : check.reason === 'too-many-pixels' ? TOO_MANY_PIXELS : INVALID_IMAGE;
}
