// An image sent inside a request body (base64, or a data: URL), checked like an upload: valid base64, not empty,
// within the inline cap once decoded (INLINE_IMAGE_MAX_BYTES, what a Lambda request's 6 MB holds), a JPEG, PNG or WebP by its bytes, and decoding completely. The one decoder
// of inline images for every route that takes them.
import type { ImageMimeType } from '../../contracts/api.js';
import { INLINE_IMAGE_MAX_BYTES, INLINE_IMAGE_TOO_LARGE } from '../../contracts/inline-image.js';
import { EMPTY_FILE, INVALID_FILE_TYPE, INVALID_IMAGE, type ImageFileProblem } from '../../contracts/upload-rules.js';
import { AppError, badRequest } from '../../core/errors.js';
import { checkImageBytes } from './decode.js';

const DATA_URL_PREFIX = /^data:[\w/+.-]*(?:;[\w=.-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const refusal = (problem: ImageFileProblem) => new AppError(400, problem.code, problem.description);

export interface InlineImage {
  bytes: Buffer;
  mimeType: ImageMimeType;
  width: number;
  height: number;
}

export async function decodeInlineImage(data: string): Promise<InlineImage> {
  const base64 = data.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  if (!BASE64.test(base64)) throw badRequest('INVALID_IMAGE_DATA', 'The image data is not valid base64.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw refusal(EMPTY_FILE);
  if (bytes.length > INLINE_IMAGE_MAX_BYTES) throw new AppError(INLINE_IMAGE_TOO_LARGE.status, INLINE_IMAGE_TOO_LARGE.code, INLINE_IMAGE_TOO_LARGE.message);
  const check = await checkImageBytes(bytes);
  if (!check.ok) throw refusal(check.reason === 'not-an-image' ? INVALID_FILE_TYPE : INVALID_IMAGE);
  return { bytes, mimeType: check.mimeType, width: check.width, height: check.height };
}
