// The clothing library: uploads into the caller's folder of the clothing-images bucket, reads of the caller's own
// items with signed display URLs, rename / description changes, and soft delete. Registering an uploaded file as an
// item decodes it and lives in clothing-registration.ts, so these routes never load the image decoder.
import { clothingItemOnWire, type ClothingItem, type CreateUploadUrlRequest, type CreateUploadUrlResponse } from '../contracts/api.js';
import { CLOTHING_MAX_BYTES, SIGNED_URL_SECONDS, UPLOAD_URL_SECONDS } from '../contracts/catalog.js';
import { notFound } from '../core/errors.js';
import * as repo from '../data/clothing-repo.js';
import { presignDownload, signedUrlExpiresAt } from '../storage/presign.js';
import { createImageUpload, isUploadId, type UploadPolicy } from './images/upload-url.js';

export const CLOTHING_UPLOADS: UploadPolicy = { bucket: 'clothingImages', maxBytes: CLOTHING_MAX_BYTES, urlSeconds: UPLOAD_URL_SECONDS };

const itemNotFound = () => notFound('This clothing item was not found.');

/** An item id from a path: anything that cannot be an item's id is simply not found. */
function itemId(id: string): string {
  if (!isUploadId(id)) throw itemNotFound();
  return id;
}

export function createClothingUpload(userId: string, file: CreateUploadUrlRequest): Promise<CreateUploadUrlResponse> {
  return createImageUpload(userId, file, CLOTHING_UPLOADS);
}

export async function listClothingItems(userId: string, activeOnly: boolean): Promise<ClothingItem[]> {
  const items = await repo.listItems(userId, { activeOnly });
  return Promise.all(items.map(withSignedUrl));
}

export async function getClothingItem(userId: string, id: string): Promise<ClothingItem> {
  const item = await repo.getItem(userId, itemId(id));
  if (!item) throw itemNotFound();
  return withSignedUrl(item);
}

export async function updateClothingItem(
  userId: string,
  id: string,
  changes: { name?: string; description?: string | null; productType?: ClothingItem['product_type'] },
): Promise<ClothingItem> {
  const { productType, ...details } = changes;
  const item = await repo.updateItemDetails(userId, itemId(id), { ...details, ...(productType && { product_type: productType }) });
  if (!item) throw itemNotFound();
  return withSignedUrl(item);
}

export async function deleteClothingItem(userId: string, id: string): Promise<ClothingItem> {
  const item = await repo.softDeleteItem(userId, itemId(id));
  if (!item) throw itemNotFound();
  return withSignedUrl(item);
}

/** An item as the API answers it: with signed URLs to display its image and its thumbnail. */
export async function withSignedUrl(item: repo.ClothingItemRecord): Promise<ClothingItem> {
  const url_expires_at = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
  const [signed_url, thumbnail_signed_url] = await Promise.all([
    presignDownload('clothingImages', item.image_key, item.mime_type, SIGNED_URL_SECONDS),
    item.thumbnail_key ? presignDownload('clothingImages', item.thumbnail_key, 'image/webp', SIGNED_URL_SECONDS) : null,
  ]);
  return clothingItemOnWire(item, { signed_url, thumbnail_signed_url, url_expires_at });
}
