// Registering an uploaded file as a clothing item: the file is accepted only if it really is an image within the
// limit (lambdas/domain/images/stored-upload.ts decodes it), and that decode makes the item's thumbnail; so this and
// the thumbnails' backfill are the clothing routes that load the decoder.
import type { ClothingItem } from '../contracts/api.js';
import { conflict } from '../core/errors.js';
import * as repo from '../data/clothing-repo.js';
import { CLOTHING_UPLOADS, withSignedUrl } from './clothing.js';
import { CLOTHING_THUMBNAIL, storeThumbnail } from './clothing-thumbnails.js';
import { acceptUploadedImage } from './images/stored-upload.js';
import { ownUploadId } from './images/upload-url.js';

interface NewItem {
  imageKey: string;
  name: string;
  description?: string | null;
  productType?: ClothingItem['product_type'];
}

/**
 * Registers an uploaded file as an item. The item's id is the upload's id, so one upload makes at most one item;
 * a file already registered is never inspected (or deleted) again.
 */
export async function registerClothingItem(userId: string, request: NewItem, now = () => new Date().toISOString()): Promise<ClothingItem> {
  const id = ownUploadId(userId, request.imageKey);
  const alreadyRegistered = () => conflict('ALREADY_REGISTERED', 'This image is already in your clothing library.');
  if (await repo.getItem(userId, id)) throw alreadyRegistered();

  // The check's own decode makes the thumbnail the library's tiles show (clothing-thumbnails.ts).
  const image = await acceptUploadedImage(request.imageKey, CLOTHING_UPLOADS, CLOTHING_THUMBNAIL);
  const thumbnailKey = image.thumbnail ? await storeThumbnail(userId, id, image.thumbnail) : undefined;
  const item: repo.ClothingItemRecord = {
    id,
    user_id: userId,
    name: request.name,
    description: request.description ?? null,
    image_key: image.key,
    file_size_bytes: image.sizeBytes,
    mime_type: image.mimeType,
    is_deleted: false,
    generations_count: 0,
    created_at: now(),
    product_type: request.productType ?? 'clothing',
    ...(thumbnailKey ? { thumbnail_key: thumbnailKey } : {}),
  };
  if (!(await repo.putNewItem(item))) throw alreadyRegistered();
  return withSignedUrl(item);
}
