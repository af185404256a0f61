// Files people upload as the source of a generation (image generation, edit, upscale) or a video: where they go and
// how large they may be, and the upload URL. Checking the stored file (a decode) happens only when a generation uses it (source.ts).
import type { CreateUploadUrlRequest, CreateUploadUrlResponse } from '../../contracts/api.js';
import { GENERATION_UPLOAD_MAX_BYTES, UPLOAD_URL_SECONDS, VIDEO_SOURCE_MAX_BYTES } from '../../contracts/catalog.js';
import { createImageUpload, type UploadPolicy } from './upload-url.js';

/** Files uploaded for image generation, edit and upscale: the results bucket, at most 10 MB. */
export const GENERATION_UPLOADS: UploadPolicy = {
  bucket: 'results',
  maxBytes: GENERATION_UPLOAD_MAX_BYTES,
  urlSeconds: UPLOAD_URL_SECONDS,
};

/** A video's source image: the caller's own file in the results bucket, at most 6 MB. */
export const VIDEO_UPLOADS: UploadPolicy = { bucket: 'results', maxBytes: VIDEO_SOURCE_MAX_BYTES, urlSeconds: UPLOAD_URL_SECONDS };

export function createGenerationUpload(userId: string, file: CreateUploadUrlRequest): Promise<CreateUploadUrlResponse> {
  return createImageUpload(userId, file, GENERATION_UPLOADS);
}
