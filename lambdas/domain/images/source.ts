// The image a request names (a generation's or a video's input), and the rule that it must be the caller's own: a
// library item, a file the caller uploaded, an image sent inline, or one of the caller's results. The other modules
// of this folder are its steps: upload-url (hand out the PUT, the caller's-own-key rule), stored-upload (check what
// was stored), inline (decode bytes sent in the body), decode and file-type (what the bytes are), result-source and
// result-files (the caller's finished images and where they live). Links are refused, so
// the server never fetches a URL someone else chose; keys outside the caller's folder are refused too. Inline and
// uploaded images are decoded to be checked, so only the generating routes import this module.
import type { ImageMimeType } from '../../contracts/api.js';
import { GenerationId } from '../../contracts/generations.js';
import { sourceSizeProblem } from '../../contracts/image-ratios.js';
import { IMAGE_REQUIRED, VIDEO_SOURCE_FIELDS, type GenerateVideoRequest } from '../../contracts/video.js';
import { AppError, badRequest, forbidden, notFound } from '../../core/errors.js';
import { getActiveItem } from '../../data/clothing-repo.js';
import type { GenerationSource } from '../../data/generations-repo.js';
import { readObject, writeObject } from '../../storage/objects.js';
import { loadSharp } from './decode.js';
import { decodeInlineImage } from './inline.js';
import { acceptUploadedImage } from './stored-upload.js';
import { detectImageType } from './file-type.js';
import { ownUploadId } from './upload-url.js';
import { inlineSourceKey, parseResultKey } from './result-files.js';
import { finishedImageSource } from './result-source.js';
import { PRODUCT_NAME_PARAM } from '../../contracts/file-names.js';
import { UPLOADED_PHOTO_TITLE } from '../generation/titles.js';
import { GENERATION_UPLOADS, VIDEO_UPLOADS } from './source-uploads.js';

type VideoSourceFields = Pick<import('zod').output<typeof GenerateVideoRequest>, (typeof VIDEO_SOURCE_FIELDS)[number]>;

export interface ResolvedSource {
  source: GenerationSource;
  /** Set when the image is a library item (its generations_count counts this generation). */
  clothingItemId?: string;
  /** The picture's size when it is already known (an upload just checked, a result's row); else sourceSize reads it. */
  size?: Size;
  /** What the picture is called (generation/titles.ts): the item's name, a result's title, or an uploaded photo. */
  title?: string;
  /** The product it shows (a library item's name, or the product a result was made of): what its results' files are named after. */
  productName?: string;
}

type Size = { width: number; height: number };

/** The first bytes read for a picture's size: enough for the header of any JPEG, PNG or WebP but one with a huge EXIF. */
const HEADER_BYTES = 256 * 1024;

/** The source picture's size: known, or read from its header (the whole file when the header is further in). */
export async function sourceSize(resolved: ResolvedSource): Promise<Size> {
  if (resolved.size) return resolved.size;
  const { bucket, key } = resolved.source;
  const size = (await sizeOfBytes(await readObject(bucket, key, HEADER_BYTES))) ?? (await sizeOfBytes(await readObject(bucket, key)));
  if (!size) throw new AppError(409, 'IMAGE_NOT_READY', 'This image cannot be read.');
  return size;
}

/** A source too small to work from is refused before any charge (400 IMAGE_TOO_SMALL); else its size. */
export async function checkedSourceSize(resolved: ResolvedSource): Promise<Size> {
  const size = await sourceSize(resolved);
  refuseSmallSource(size);
  return size;
}

function refuseSmallSource(size: Size): void {
  const problem = sourceSizeProblem(size);
  if (problem) throw badRequest('IMAGE_TOO_SMALL', problem);
}

/** The picture's size upright (EXIF orientation applied), as every engine sees it after auto-orienting. */
async function sizeOfBytes(bytes: Buffer): Promise<Size | undefined> {
  const metadata = await (await loadSharp())(bytes).metadata().catch(() => undefined);
  const { width, height } = metadata?.autoOrient ?? {};
  return width && height ? { width, height } : undefined;
}

const notYours = () => forbidden('FORBIDDEN', 'This image does not belong to your account.');
const clothingItemMissing = () => notFound('This clothing item was not found in your library.');

/** An active item of the caller's library. */
export async function clothingItemSource(userId: string, clothingItemId: string): Promise<ResolvedSource> {
  const item = await getActiveItem(userId, clothingItemId);
  if (!item) throw clothingItemMissing();
  return { source: { kind: 'clothing-item', bucket: 'clothingImages', key: item.image_key, ref: item.id }, clothingItemId: item.id, title: item.name, productName: item.name };
}

/** A file the caller uploaded for generations, accepted only if it really is a whole image within the limit. */
export async function uploadedSource(userId: string, key: string): Promise<ResolvedSource> {
  ownUploadId(userId, key);
  const image = await acceptUploadedImage(key, GENERATION_UPLOADS);
  return { source: { kind: 'upload', bucket: 'results', key: image.key }, size: { width: image.width, height: image.height }, title: UPLOADED_PHOTO_TITLE };
}

/**
 * An image sent inline (base64, or a data: URL), at most 10 MB once decoded. It is checked now and stored beside the
 * generation's result only once the generation is charged (`place`), so a refused request writes nothing.
 */
export async function inlineSource(userId: string, imageData: string): Promise<PreparedSource> {
  const image = await decodeInlineImage(imageData);
  refuseSmallSource(image);
  return {
    place: async (generationId) => {
      const key = inlineSourceKey(userId, generationId, image.mimeType);
      await writeObject('results', key, image.bytes, image.mimeType);
      return { kind: 'upload', bucket: 'results', key };
    },
  };
}

/** The params field that names a result's product after its source's (contracts/file-names.ts), when it has one. */
export function productParam({ productName }: Pick<ResolvedSource, 'productName'>): { [PRODUCT_NAME_PARAM]?: string } {
  return productName ? { [PRODUCT_NAME_PARAM]: productName } : {};
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

/** The one image a video request names, with its bytes when they are to be stored beside the job once it is paid. */
export type VideoSourceImage = (
  | { bytes: Buffer; mimeType: ImageMimeType; uploadedKey: undefined }
  | { bytes: undefined; mimeType: ImageMimeType; uploadedKey: string }
) & {
  /** The product the picture shows, when it is a library item or a result (the videos' file names). */
  productName?: string;
};

/**
 * The image a video request names, checked: inline base64, an upload in the caller's own folder, one of the caller's
 * finished images, or an item of the caller's library (someone else's is not found, as edit and upscale answer). A
 * result or library image is read here so the job can keep a copy whatever happens to the original.
 */
export async function videoSourceImage(userId: string, request: VideoSourceFields): Promise<VideoSourceImage> {
  const named = VIDEO_SOURCE_FIELDS.filter((field) => request[field] !== undefined);
  if (named.length !== 1) {
    throw new AppError(400, 'VALIDATION_ERROR', named.length > 1 ? `Send one image: ${named.join(' or ')}, not both` : IMAGE_REQUIRED);
  }
  if (request.imageBase64 !== undefined) {
    const image = await decodeInlineImage(request.imageBase64);
    refuseSmallSource(image);
    return { bytes: image.bytes, mimeType: image.mimeType, uploadedKey: undefined };
  }
  if (request.generationId !== undefined || request.clothingItemId !== undefined) {
    const resolved =
      request.generationId !== undefined ? await ownImageSource(userId, request.generationId) : await clothingItemSource(userId, request.clothingItemId!);
    const bytes = await readObject(resolved.source.bucket, resolved.source.key);
    const mimeType = detectImageType(bytes);
    if (!mimeType) throw new AppError(409, 'IMAGE_NOT_READY', 'This image cannot be used for a video.');
    await checkedSourceSize({ ...resolved, size: resolved.size ?? (await sizeOfBytes(bytes)) });
    return { bytes, mimeType, uploadedKey: undefined, ...(resolved.productName ? { productName: resolved.productName } : {}) };
  }
  ownUploadId(userId, request.imageKey!);
  const accepted = await acceptUploadedImage(request.imageKey!, VIDEO_UPLOADS);
  refuseSmallSource(accepted);
  return { bytes: undefined, mimeType: accepted.mimeType, uploadedKey: accepted.key };
}
