// A finished picture's files in the results bucket: the picture and its thumbnail. The generation workflow's Process
// task stores each result this way (work.ts), and a refined packshot its new render (marketplace/refine.ts).
import sharp from 'sharp';
import { writeObject } from '../../storage/objects.js';
import { resultKey, thumbnailKey } from '../images/result-files.js';

const THUMBNAIL_WIDTH = 360;

export async function storeResultFiles(
  userId: string,
  generationId: string,
  picture: { bytes: Buffer; mimeType: 'image/png' | 'image/jpeg' },
): Promise<{ result_key: string; thumbnail_key: string }> {
  const key = resultKey(userId, generationId, picture.mimeType);
  const thumbnail = thumbnailKey(userId, generationId);
  await writeObject('results', key, picture.bytes, picture.mimeType);
  await writeObject('results', thumbnail, await sharp(picture.bytes).resize({ width: THUMBNAIL_WIDTH }).webp({ quality: 80 }).toBuffer(), 'image/webp');
  return { result_key: key, thumbnail_key: thumbnail };
}
