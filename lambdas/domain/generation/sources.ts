// The input image of a generation, and the rule that it must be the caller's own: a library item, a file
// the caller uploaded for generations, an image sent inline, or one of the caller's results. Links are refused, so
// the server never fetches a URL someone else chose; keys outside the caller's folder are refused too. Inline and
// uploaded images are decoded to be checked, so only the generating routes import this module.
import { GENERATION_UPLOAD_MAX_BYTES } from '../../contracts/catalog.js';
import { GenerationId } from '../../contracts/generations.js';
import { badRequest, forbidden, notFound } from '../../core/errors.js';
import { getActiveItem } from '../../data/clothing-repo.js';
import type { GenerationSource } from '../../data/generations-repo.js';
import { writeObject } from '../../storage/objects.js';
import { decodeInlineImage } from '../inline-image.js';
import { acceptUploadedImage } from '../uploaded-images.js';
import { ownUploadId } from '../uploads.js';
import { inlineSourceKey, parseResultKey } from './files.js';
import { finishedImageSource } from './result-source.js';
import { GENERATION_UPLOADS } from './uploads.js';

export interface ResolvedSource {
  source: GenerationSource;
  /** Set when the image is a library item (its generations_count counts this generation). */
  clothingItemId?: string;
}

const notYours = () => forbidden('FORBIDDEN', 'This image does not belong to your account.');
const clothingItemMissing = () => notFound('This clothing item was not found in your library.');

/** An active item of the caller's library. */
export async function clothingItemSource(userId: string, clothingItemId: string): Promise<ResolvedSource> {
  const item = await getActiveItem(userId, clothingItemId);
  if (!item) throw clothingItemMissing();
  return { source: { kind: 'clothing-item', bucket: 'clothingImages', key: item.image_key, ref: item.id }, clothingItemId: item.id };
}

/** A file the caller uploaded for generations, accepted only if it really is a whole image within the limit. */
export async function uploadedSource(userId: string, key: string): Promise<ResolvedSource> {
  ownUploadId(userId, key);
  const image = await acceptUploadedImage(key, GENERATION_UPLOADS);
  return { source: { kind: 'upload', bucket: 'results', key: image.key } };
}

/**
 * An image sent inline (base64, or a data: URL), at most 10 MB once decoded. It is checked now and stored beside the
 * generation's result only once the generation is charged (`place`), so a refused request writes nothing.
 */
export async function inlineSource(userId: string, imageData: string): Promise<PreparedSource> {
  const image = await decodeInlineImage(imageData, GENERATION_UPLOAD_MAX_BYTES);
  return {
    place: async (generationId) => {
      const key = inlineSourceKey(userId, generationId, image.mimeType);
      await writeObject('results', key, image.bytes, image.mimeType);
      return { kind: 'upload', bucket: 'results', key };
    },
  };
}

/** A checked source whose image is put in place once the generation it feeds exists. */
export interface PreparedSource {
  clothingItemId?: string;
  place: (generationId: string) => Promise<GenerationSource>;
}

/** A source that is already where it stays (a library item, an upload, a result). */
export function placed({ source, clothingItemId }: ResolvedSource): PreparedSource {
  return { clothingItemId, place: async () => source };
}

/**
 * What edit and upscale start from (`imageRef`, the wire's `imageUrl`): one of the caller's generation ids or result keys (a complete
 * image), a key of the caller's library item, or a key of a file the caller uploaded for generations.
 */
export async function ownImageSource(userId: string, reference: string): Promise<ResolvedSource> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('//')) {
    throw badRequest(
      'IMAGE_URL_NOT_ALLOWED',
      'Links to images are not accepted. Upload the image, or choose one of your clothing items or results.',
    );
  }
  if (!reference.includes('/')) {
    if (!GenerationId.safeParse(reference).success) throw badRequest('INVALID_IMAGE_REFERENCE', 'This is not an image of your account.');
    return finishedImageSource(userId, reference);
  }
  const owner = reference.split('/')[0];
  if (owner !== userId) throw notYours();
  const result = parseResultKey(reference);
  if (result) return finishedImageSource(userId, result.generationId);
  const uploadId = ownUploadId(userId, reference);
  const item = await getActiveItem(userId, uploadId);
  if (item?.image_key === reference) return clothingItemSource(userId, item.id);
  return uploadedSource(userId, reference);
}
