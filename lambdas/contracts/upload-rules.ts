// The rules for image files people upload, and the messages the screens show for them. The web app checks a
// picked file with them before anything is sent; the server checks the declared file with them before it signs an
// upload URL, and checks the stored bytes again after the upload (lambdas/domain/images/stored-upload.ts).
import type { ImageMimeType } from './api.js';
import { IMAGE_MIME_TYPES, MB } from './catalog.js';

/** The extension a stored file gets for its type. */
export const IMAGE_EXTENSIONS: Record<ImageMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

const TYPES_BY_EXTENSION: Record<string, ImageMimeType> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export const isImageMimeType = (value: string): value is ImageMimeType => (IMAGE_MIME_TYPES as readonly string[]).includes(value);

/**
 * The type a file declares: its content type, or, when the browser gave none (some systems don't know .webp), the
 * one its extension names. Undefined when that is not an image type the product accepts.
 */
export function declaredImageType(contentType: string, fileName: string): ImageMimeType | undefined {
  const type = contentType.trim().toLowerCase();
  if (type) return isImageMimeType(type) ? type : type === 'image/jpg' ? 'image/jpeg' : undefined;
  return TYPES_BY_EXTENSION[extensionOf(fileName)];
}

const extensionOf = (fileName: string) => /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';

/** The item name the batch upload takes from a file: its name without the extension. */
export function fileNameWithoutExtension(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}

/** 13.2 MB, 850 KB, 120 bytes. */
export function formatFileSize(bytes: number): string {
  if (bytes >= MB) return `${trimDecimals(bytes / MB)} MB`;
  if (bytes >= 1024) return `${trimDecimals(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const trimDecimals = (value: number) => String(Math.round(value * 100) / 100);

export type ImageFileProblemCode = 'INVALID_FILE_TYPE' | 'FILE_TOO_LARGE' | 'EMPTY_FILE' | 'INVALID_IMAGE';

/** A refused file: the stable code, and the title and description people read. */
export interface ImageFileProblem {
  code: ImageFileProblemCode;
  title: string;
  description: string;
}

export const INVALID_FILE_TYPE: ImageFileProblem = {
  code: 'INVALID_FILE_TYPE',
  title: 'Invalid file type',
  description: 'Please upload a JPEG, PNG, or WebP image',
};

export const EMPTY_FILE: ImageFileProblem = {
  code: 'EMPTY_FILE',
  title: 'Invalid file type',
  description: 'This file is empty. Please upload a JPEG, PNG, or WebP image',
};

export const INVALID_IMAGE: ImageFileProblem = {
  code: 'INVALID_IMAGE',
  title: 'Upload failed',
  description: 'This image is damaged or incomplete and cannot be read. Please upload a JPEG, PNG, or WebP image',
};

/** 'File too large' with the actual size (in bytes too when the rounded sizes would read the same). */
export function fileTooLarge(sizeBytes: number, maxBytes: number): ImageFileProblem {
  const size = formatFileSize(sizeBytes);
  const max = formatFileSize(maxBytes);
  const shown = size === max ? `${size} (${sizeBytes.toLocaleString('en-US')} bytes)` : size;
  return { code: 'FILE_TOO_LARGE', title: 'File too large', description: `This file is ${shown}. The maximum size is ${max}.` };
}

/** The title people see for a refusal the server answered with one of the codes above. */
export function imageFileProblemTitle(code: string): string | undefined {
  if (code === 'FILE_TOO_LARGE') return 'File too large';
  return [INVALID_FILE_TYPE, EMPTY_FILE, INVALID_IMAGE].find((problem) => problem.code === code)?.title;
}

/** Checks a file as declared (type, size) against the product's rules; undefined when it may be uploaded. */
export function checkImageFile(file: { name: string; type: string; size: number }, maxBytes: number): ImageFileProblem | undefined {
  if (!declaredImageType(file.type, file.name)) return INVALID_FILE_TYPE;
  if (file.size > maxBytes) return fileTooLarge(file.size, maxBytes);
  if (file.size === 0) return EMPTY_FILE;
  return undefined;
}

/** Enough leading bytes to tell the accepted types apart (WebP needs 12). */
export const IMAGE_SIGNATURE_BYTES = 16;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** JPEG, PNG or WebP by the file's first bytes (its magic numbers); undefined for anything else. */
export function detectImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}
