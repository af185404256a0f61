// The clothing library: uploads into the caller's folder of the clothing-images bucket, items registered only for
// files that really are images within the limit, reads of the caller's own items with signed display URLs,
// rename / description changes, and soft delete.
import type { ClothingItem, CreateUploadUrlRequest, CreateUploadUrlResponse } from '../contracts/api.js';
import { CLOTHING_MAX_BYTES, SIGNED_URL_SECONDS, UPLOAD_URL_SECONDS } from '../contracts/catalog.js';
import { conflict, notFound } from '../core/errors.js';
import * as repo from '../data/clothing-repo.js';
import { presignDownload } from '../storage/objects.js';
import { acceptUploadedImage, createImageUpload, isUploadId, ownUploadId, type UploadPolicy } from './uploaded-images.js';

const CLOTHING_UPLOADS: UploadPolicy = { bucket: 'clothingImages', maxBytes: CLOTHING_MAX_BYTES, urlSeconds: UPLOAD_URL_SECONDS };

const itemNotFound = () => notFound('This clothing item was not found.');

/** An item id from a path: anything that cannot be an item's id is simply not found. */
function itemId(id: string): string {
  if (!isUploadId(id)) throw itemNotFound();
  return id;
}

export function createClothingUpload(userId: string, file: CreateUploadUrlRequest): Promise<CreateUploadUrlResponse> {
  return createImageUpload(userId, file, CLOTHING_UPLOADS);
}

interface NewItem {
  imageKey: string;
  name: string;
  description?: string | null;
}

/**
 * Registers an uploaded file as an item. The item's id is the upload's id, so one upload makes at most one item;
 * a file already registered is never inspected (or deleted) again.
 */
export async function registerClothingItem(userId: string, request: NewItem, now = () => new Date().toISOString()): Promise<ClothingItem> {
  const id = ownUploadId(userId, request.imageKey);
  const alreadyRegistered = () => conflict('ALREADY_REGISTERED', 'This image is already in your clothing library.');
  if (await repo.getItem(userId, id)) throw alreadyRegistered();

  const image = await acceptUploadedImage(request.imageKey, CLOTHING_UPLOADS);
  const item: repo.ClothingItemRecord = {
    id,
    user_id: userId,
    name: request.name,
    description: request.description ?? null,
    image_url: image.key,
    file_size_bytes: image.sizeBytes,
    mime_type: image.mimeType,
    is_deleted: false,
    generations_count: 0,
    created_at: now(),
  };
  if (!(await repo.putNewItem(item))) throw alreadyRegistered();
  return withSignedUrl(item);
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
  changes: { name?: string; description?: string | null },
): Promise<ClothingItem> {
  const item = await repo.updateItemDetails(userId, itemId(id), changes);
  if (!item) throw itemNotFound();
  return withSignedUrl(item);
}

export async function deleteClothingItem(userId: string, id: string): Promise<ClothingItem> {
  const item = await repo.softDeleteItem(userId, itemId(id));
  if (!item) throw itemNotFound();
  return withSignedUrl(item);
}

async function withSignedUrl(item: repo.ClothingItemRecord): Promise<ClothingItem> {
  const signed_url = await presignDownload('clothingImages', item.image_url, item.mime_type, SIGNED_URL_SECONDS);
  return { ...item, signed_url };
}
