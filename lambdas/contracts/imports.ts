// Importing a product photo from a link: the requests, the answers, the screens that ask (each with its own size
// limit, the same as its upload) and the messages people read.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { defineRoute } from './route.js';
import { CLOTHING_MAX_BYTES, GENERATION_UPLOAD_MAX_BYTES, MB, VIDEO_SOURCE_MAX_BYTES } from './catalog.js';
import { formatFileSize } from './upload-rules.js';

/** The screen an imported image is for: the Clothing Manager, Image Generation or Video Generation. */
export const IMPORT_PURPOSES = ['clothing', 'image', 'video'] as const;
export type ImportPurpose = (typeof IMPORT_PURPOSES)[number];

/** The size limit of each screen's upload, which an imported image is held to as well. */
export const IMPORT_MAX_BYTES: Record<ImportPurpose, number> = {
  clothing: CLOTHING_MAX_BYTES,
  image: GENERATION_UPLOAD_MAX_BYTES,
  video: VIDEO_SOURCE_MAX_BYTES,
};

/** The most HTML read of a page, and the most bytes of any image (the largest screen limit). */
export const IMPORT_PAGE_MAX_BYTES = 2 * MB;
export const IMPORT_IMAGE_MAX_BYTES = CLOTHING_MAX_BYTES;
/** How long the candidates of an import can be selected. */
export const IMPORT_TTL_SECONDS = 60 * 60;
export const IMPORT_URL_MAX_LENGTH = 2048;

export const IMPORT_MESSAGES = {
  enterUrl: 'Please paste a link to a product page',
  notAUrl: 'Enter a web address, e.g. https://…',
  unreachable: "We couldn't reach that page",
  timeout: "We couldn't reach that page: it took too long to answer",
  tooManyRedirects: "We couldn't reach that page: it redirects too many times",
  pageTooLarge: "We couldn't read that page: it is larger than 2 MB",
  noImage: 'No product image found on that page',
  notAllowed: "That address isn't allowed",
  imageUnreachable: "We couldn't download that image. Please try again or pick another one",
  notAnImage: 'That link is not a JPEG, PNG or WebP image',
  expired: 'This import has expired. Please paste the link again',
  notACandidate: 'Please pick one of the images found on that page',
} as const;

/** The stable codes of the import's refusals. */
export const IMPORT_CODES = {
  notAllowed: 'URL_NOT_ALLOWED',
  unreachable: 'PAGE_UNREACHABLE',
  timeout: 'FETCH_TIMEOUT',
  tooManyRedirects: 'TOO_MANY_REDIRECTS',
  pageTooLarge: 'PAGE_TOO_LARGE',
  imageTooLarge: 'IMAGE_TOO_LARGE',
  noImage: 'NO_PRODUCT_IMAGE',
  imageUnreachable: 'IMAGE_UNREACHABLE',
  notAnImage: 'INVALID_FILE_TYPE',
  expired: 'IMPORT_NOT_FOUND',
  notACandidate: 'NOT_A_CANDIDATE',
} as const;

/** "The image is too large (20 MB, the limit is 12 MB)"; "over 12 MB" when the image never said its size. */
export function imageTooLargeMessage(sizeBytes: number | undefined, limitBytes: number): string {
  const size = sizeBytes === undefined ? `over ${formatFileSize(limitBytes)}` : formatFileSize(sizeBytes);
  return `The image is too large (${size}, the limit is ${formatFileSize(limitBytes)})`;
}

/** A scheme written before the address ("https:", "ftp:"); "localhost:8080" and "shop.example:443" are a host and a port. */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/**
 * The absolute address a pasted link means, or undefined when the text is not an address at all. A link without a
 * scheme ("shop.example/p/1", "127.0.0.1:8080/page") is read as https://; any scheme given is kept, and the fetch
 * guard decides later whether that address may be fetched. Free text ("linen shirt", "linen") is no address: a host
 * is a dotted name, an IP address or localhost.
 */
export function webAddressOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return undefined;
  const written = SCHEME.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/+/, '')}`;
  try {
    const url = new URL(written);
    if (SCHEME.test(trimmed) && !/^https?:$/.test(url.protocol)) return url.href;
    const host = url.hostname;
    return host.includes('.') || host.startsWith('[') || host === 'localhost' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the text is an address at all (webAddressOf), before the fetch guard decides whether it may be fetched. */
export function isWebAddress(text: string): boolean {
  return webAddressOf(text) !== undefined;
}

export const CreateImportRequest = /* @__PURE__ */ (() => z.object({
  url: z
    .string({ error: IMPORT_MESSAGES.enterUrl })
    .trim()
    .min(1, IMPORT_MESSAGES.enterUrl)
    .max(IMPORT_URL_MAX_LENGTH, IMPORT_MESSAGES.enterUrl)
    .refine(isWebAddress, IMPORT_MESSAGES.notAUrl)
    .transform((text) => webAddressOf(text)!),
}))();
export type CreateImportRequest = z.infer<typeof CreateImportRequest>;

/** Where a candidate was found, best source first. */
export const CANDIDATE_SOURCES = ['shopify', 'json-ld', 'og:image', 'twitter:image', 'image_src', 'img', 'direct'] as const;

export const ImportCandidate = /* @__PURE__ */ (() => z.object({
  imageUrl: z.string(),
  source: z.enum(CANDIDATE_SOURCES),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** A small JPEG as a data: URL, so the page shows it without loading anything from the shop. */
  previewUrl: z.string(),
}))();
export type ImportCandidate = z.infer<typeof ImportCandidate>;

export const ImportResponse = /* @__PURE__ */ (() => z.object({
  importId: z.string(),
  pageUrl: z.string(),
  candidates: z.array(ImportCandidate),
  expiresAt: z.string(),
}))();
export type ImportResponse = z.infer<typeof ImportResponse>;

export const ImportId = /* @__PURE__ */ (() => z.string().uuid())();

export const SelectImportRequest = /* @__PURE__ */ (() => z.object({
  imageUrl: z.string({ error: IMPORT_MESSAGES.notACandidate }).min(1, IMPORT_MESSAGES.notACandidate).max(IMPORT_URL_MAX_LENGTH, IMPORT_MESSAGES.notACandidate),
  purpose: z.enum(IMPORT_PURPOSES, { error: 'purpose must be clothing, image or video' }),
}))();
export type SelectImportRequest = z.infer<typeof SelectImportRequest>;

/** The stored image: `imageKey` is what the screen's route takes, as it takes an upload's key. */
export const ImportedImage = /* @__PURE__ */ (() => z.object({
  imageKey: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** A signed URL to show it, until `expiresAt`. */
  previewUrl: z.string(),
  expiresAt: z.string(),
}))();
export type ImportedImage = z.infer<typeof ImportedImage>;

// ——— Routes (lambdas/contracts/route.ts) ———

export const createImportRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/imports',
  auth: 'user',
  summary: "Read a product page's pictures (the candidates to import)",
  body: CreateImportRequest,
  response: ImportResponse,
  status: 201,
  sample: { body: { url: 'https://shop.example/products/linen-shirt' } },
}))();

export const selectImportImageRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/imports/{id}/select',
  auth: 'user',
  summary: 'Import one candidate picture into your folder',
  body: SelectImportRequest,
  response: ImportedImage,
  sample: {
    params: { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' },
    body: { imageUrl: 'https://shop.example/cdn/linen-shirt-front.jpg', purpose: 'clothing' },
  },
}))();
