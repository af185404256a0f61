// Files people upload for image generation, edit and upscale: where they go and how large they may be, and the
// upload URL. Checking the stored file (a decode) happens only when a generation uses it (sources.ts).
import type { CreateUploadUrlRequest, CreateUploadUrlResponse } from '../../contracts/api.js';
import { GENERATION_UPLOAD_MAX_BYTES, UPLOAD_URL_SECONDS } from '../../contracts/catalog.js';
import { createImageUpload, type UploadPolicy } from '../uploads.js';

/** Files uploaded for image generation, edit and upscale: the results bucket, at most 10 MB. */
export const GENERATION_UPLOADS: UploadPolicy = {
  bucket: 'results',
  maxBytes: GENERATION_UPLOAD_MAX_BYTES,
  urlSeconds: UPLOAD_URL_SECONDS,
};

export function createGenerationUpload(userId: string, file: CreateUploadUrlRequest): Promise<CreateUploadUrlResponse> {
  return createImageUpload(userId, file, GENERATION_UPLOADS);
}
