// Where a generation's files live in the results bucket, all under the owner's folder:
//   {userId}/generations/{id}.png          the result (.jpg for a JPEG packshot)
//   {userId}/generations/{id}-thumb.webp   its thumbnail
//   {userId}/generations/{id}-source.{ext} an image sent inline (imageData)
//   {userId}/generations/{id}-mask.png     a packshot's cutout mask (white = product), for the Refine cutout brush
//   {userId}/cutout-masks/{photo}.png      a seller's refined mask of one source photo (marketplace/packshot-job.ts)
// Files uploaded for a generation (POST /generation-uploads/upload-url) are {userId}/{timestamp}-{random}.{ext}.
import type { ImageMimeType } from '../../contracts/api.js';
import { IMAGE_EXTENSIONS } from '../../contracts/upload-rules.js';

const folder = (userId: string) => `${userId}/generations`;

export const resultKey = (userId: string, generationId: string, mimeType: 'image/png' | 'image/jpeg' = 'image/png') =>
  `${folder(userId)}/${generationId}.${mimeType === 'image/jpeg' ? 'jpg' : 'png'}`;
export const cutoutMaskKey = (userId: string, generationId: string) => `${folder(userId)}/${generationId}-mask.png`;
export const thumbnailKey = (userId: string, generationId: string) => `${folder(userId)}/${generationId}-thumb.webp`;
export const inlineSourceKey = (userId: string, generationId: string, mimeType: ImageMimeType) =>
  `${folder(userId)}/${generationId}-source.${IMAGE_EXTENSIONS[mimeType]}`;

const RESULT_KEY = /^([^/]+)\/generations\/([A-Za-z0-9_-]{1,80})\.(?:png|jpg)$/;

/** The owner and generation of a result key, or undefined when the key is not one. */
export function parseResultKey(key: string): { userId: string; generationId: string } | undefined {
  const match = RESULT_KEY.exec(key);
  return match ? { userId: match[1]!, generationId: match[2]! } : undefined;
}
