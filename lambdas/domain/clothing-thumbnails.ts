// The thumbnails of clothing items: what the library's, the batch screen's and the pickers' tiles show instead of the
// original photo (a 12 MP phone photo is 2–4 MB; its thumbnail tens of KB). A new item's thumbnail is made by the
// decode that checks its upload (clothing-registration.ts); items stored before thumbnails get theirs from
// POST /clothing-items/thumbnails, a write the Clothing screen calls when it lists items without one (never a GET).
// It decodes pictures, so only the functions that make thumbnails import it.
import { CLOTHING_THUMBNAIL_BOX, type MakeClothingThumbnailsResponse } from '../contracts/api.js';
import { MAKE_THUMBNAILS_PER_CALL } from '../contracts/clothing.js';
import { log } from '../core/log.js';
import * as repo from '../data/clothing-repo.js';
import { readObject, writeObject } from '../storage/objects.js';
import { checkImageBytes } from './images/decode.js';

/** What the upload check is asked to make of a clothing photo: its thumbnail. */
export const CLOTHING_THUMBNAIL = { thumbnailCovering: CLOTHING_THUMBNAIL_BOX } as const;

/** {userId}/thumbnails/{item id}.webp: in the owner's folder, so it goes wherever the folder goes (export, deletion). */
const thumbnailKeyOf = (userId: string, itemId: string) => `${userId}/thumbnails/${itemId}.webp`;

/** Stores an item's thumbnail and answers its key. */
export async function storeThumbnail(userId: string, itemId: string, thumbnail: Buffer): Promise<string> {
  const key = thumbnailKeyOf(userId, itemId);
  await writeObject('clothingImages', key, thumbnail, 'image/webp');
  return key;
}

/**
 * Makes the thumbnails of up to MAKE_THUMBNAILS_PER_CALL of the caller's items (not deleted) stored without one, newest
 * first. An original that no longer decodes is left as it is (its tile shows the placeholder it shows today).
 */
export async function makeMissingThumbnails(userId: string): Promise<MakeClothingThumbnailsResponse> {
  const missing = (await repo.listItems(userId, { activeOnly: true })).filter((item) => !item.thumbnail_key);
  const batch = missing.slice(0, MAKE_THUMBNAILS_PER_CALL);
  let made = 0;
  for (const item of batch) {
    const check = await checkImageBytes(await readObject('clothingImages', item.image_key), CLOTHING_THUMBNAIL);
    if (!check.ok || !check.thumbnail) {
      log.warn('clothing item original does not decode: no thumbnail', { itemId: item.id, reason: check.ok ? 'none' : check.reason });
      continue;
    }
    if (await repo.setThumbnailKey(userId, item.id, await storeThumbnail(userId, item.id, check.thumbnail))) made += 1;
  }
  return { made, remaining: missing.length - made };
}
