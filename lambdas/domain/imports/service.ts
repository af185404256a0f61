// Importing a product photo from a link. POST /imports fetches the page through the SSRF guard, finds the product's
// images (Shopify's product JSON, JSON-LD, og:image / twitter:image / image_src, the largest image of the main
// content; a direct image link is its own single candidate), downloads each to measure it and make a small preview,
// keeps nothing but the list, and answers the candidates best first. POST /imports/{id}/select downloads one of
// that import's candidates again, checks it exactly like an upload for the screen that asked, and stores it in the
// caller's own folder under an upload key, which the screen's route then takes as it takes an upload.
import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { ImageMimeType } from '../../contracts/api.js';
import { CLOTHING_MAX_BYTES, GENERATION_UPLOAD_MAX_BYTES, SIGNED_URL_SECONDS, VIDEO_SOURCE_MAX_BYTES } from '../../contracts/catalog.js';
import {
  IMPORT_CODES,
  IMPORT_IMAGE_MAX_BYTES,
  IMPORT_MESSAGES,
  IMPORT_PAGE_MAX_BYTES,
  IMPORT_TTL_SECONDS,
  ImportId,
  imageTooLargeMessage,
  type ImportCandidate,
  type ImportedImage,
  type ImportPurpose,
  type ImportResponse,
  type SelectImportRequest,
} from '../../contracts/imports.js';
import { AppError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { getLiveImport, putImport, type ImportCandidateRecord } from '../../data/imports-repo.js';
import type { BucketName } from '../../data/tables.js';
import { FETCH_TIMEOUT_MS, safeFetch, SafeFetchError, type SafeFetchOptions } from '../../net/safe-fetch.js';
import { writeObject } from '../../storage/objects.js';
import { presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { detectImageType, MAX_IMAGE_PIXELS } from '../images/file-type.js';
import { takeRequest } from '../limits.js';
import { inspectImageBytes } from '../images/stored-upload.js';
import { newUploadKey, uploadRefusal as refusal } from '../images/upload-url.js';
import { imagesOfPage, shopifyProductImages, type CandidateSource, type PageImage } from './page-images.js';

/** Where each screen's imported image goes: the bucket and size limit of that screen's own uploads. */
const IMPORT_TARGETS: Record<ImportPurpose, { bucket: BucketName; maxBytes: number }> = {
  clothing: { bucket: 'clothingImages', maxBytes: CLOTHING_MAX_BYTES },
  image: { bucket: 'results', maxBytes: GENERATION_UPLOAD_MAX_BYTES },
  video: { bucket: 'results', maxBytes: VIDEO_SOURCE_MAX_BYTES },
};

const MAX_CANDIDATES = 8;
const PROBE_CONCURRENCY = 4;
const PREVIEW_SIDE = 256;
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,image/avif,image/webp,image/png,image/jpeg,*/*;q=0.8';
const IMAGE_ACCEPT = 'image/webp,image/png,image/jpeg,image/*;q=0.8';
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml', '']);

const refuse = (status: number, key: keyof typeof IMPORT_CODES & keyof typeof IMPORT_MESSAGES) =>
  new AppError(status, IMPORT_CODES[key], IMPORT_MESSAGES[key]);
const tooLarge = (sizeBytes: number | undefined, limitBytes: number) =>
  new AppError(413, IMPORT_CODES.imageTooLarge, imageTooLargeMessage(sizeBytes, limitBytes));

/** What a refused or failed fetch tells the person who pasted the link. */
function fetchRefusal(error: unknown, stage: 'page' | 'image', imageLimitBytes: number): AppError {
  if (!(error instanceof SafeFetchError)) return refuse(422, stage === 'page' ? 'unreachable' : 'imageUnreachable');
  switch (error.reason) {
    case 'ADDRESS_NOT_ALLOWED':
      return refuse(400, 'notAllowed');
    case 'TIMEOUT':
      return refuse(422, 'timeout');
    case 'TOO_MANY_REDIRECTS':
      return refuse(422, 'tooManyRedirects');
    case 'TOO_LARGE':
      if (stage === 'image' || error.details.contentType?.startsWith('image/')) return tooLarge(error.details.sizeBytes, imageLimitBytes);
      return refuse(422, 'pageTooLarge');
    default:
      return refuse(422, stage === 'page' ? 'unreachable' : 'imageUnreachable');
  }
}

interface Measured {
  mimeType: ImageMimeType;
  sizeBytes: number;
  width: number;
  height: number;
  previewUrl: string;
}

/** The size, dimensions and a small JPEG preview of an image's bytes; undefined when they are not a whole image. */
async function measure(bytes: Buffer): Promise<Measured | undefined> {
  const mimeType = detectImageType(bytes);
  if (!mimeType) return undefined;
  try {
    const options = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS } as const;
    const { width, height } = await sharp(bytes, options).metadata();
    const preview = await sharp(bytes, options)
      .rotate()
      .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
    if (!width || !height) return undefined;
    return { mimeType, sizeBytes: bytes.length, width, height, previewUrl: `data:image/jpeg;base64,${preview.toString('base64')}` };
  } catch {
    return undefined;
  }
}

interface Probe {
  candidate?: ImportCandidate;
  /** The bytes' hash: one photo published under two addresses is offered once. */
  digest?: string;
  /** Set when the image was over the largest limit: the import says so if nothing else was found. */
  tooLarge?: { sizeBytes?: number };
}

async function probe(image: PageImage, signal: AbortSignal): Promise<Probe> {
  try {
    const fetched = await safeFetch(image.url, { maxBytes: IMPORT_IMAGE_MAX_BYTES, accept: IMAGE_ACCEPT, signal });
    const measured = await measure(fetched.bytes);
    const digest = createHash('sha256').update(fetched.bytes).digest('hex');
    return measured ? { candidate: { imageUrl: image.url, source: image.source, ...measured }, digest } : {};
  } catch (error) {
    if (error instanceof SafeFetchError && error.reason === 'TOO_LARGE') return { tooLarge: { sizeBytes: error.details.sizeBytes } };
    return {};
  }
}

/** Probes images a few at a time, keeping their order. */
async function probeAll(images: PageImage[], signal: AbortSignal): Promise<Probe[]> {
  const results: Probe[] = new Array(images.length);
  let next = 0;
  const worker = async () => {
    while (next < images.length) {
      const index = next++;
      results[index] = await probe(images[index]!, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, images.length) }, worker));
  return results;
}

async function shopifyImages(jsonUrl: string, pageUrl: string, signal: AbortSignal): Promise<PageImage[]> {
  try {
    const answer = await safeFetch(jsonUrl, { maxBytes: IMPORT_PAGE_MAX_BYTES, accept: 'application/json', signal });
    return shopifyProductImages(answer.bytes.toString('utf8'), pageUrl).map((url) => ({ url, source: 'shopify' as CandidateSource }));
  } catch {
    return [];
  }
}

const withoutDuplicates = (images: PageImage[]) => images.filter((image, index) => images.findIndex((other) => other.url === image.url) === index);

/** The candidates of a page (or of a direct image link), best first. */
async function findCandidates(pageUrl: string, signal: AbortSignal): Promise<ImportCandidate[]> {
  const fetchOptions: SafeFetchOptions = {
    maxBytes: (type) => (type.startsWith('image/') ? IMPORT_IMAGE_MAX_BYTES : IMPORT_PAGE_MAX_BYTES),
    accept: PAGE_ACCEPT,
    signal,
  };
  const page = await safeFetch(pageUrl, fetchOptions).catch((error: unknown) => {
    throw fetchRefusal(error, 'page', IMPORT_IMAGE_MAX_BYTES);
  });

  if (page.contentType.startsWith('image/') || detectImageType(page.bytes)) {
    const measured = await measure(page.bytes);
    if (!measured) throw refuse(400, 'notAnImage');
    return [{ imageUrl: page.url, source: 'direct', ...measured }];
  }
  if (!HTML_TYPES.has(page.contentType)) throw refuse(422, 'noImage');

  const found = imagesOfPage(page.bytes.toString('utf8'), page.url);
  const shopify = found.shopifyProductJson ? await shopifyImages(found.shopifyProductJson, page.url, signal) : [];
  const named = withoutDuplicates([...shopify, ...found.named]).slice(0, MAX_CANDIDATES);
  const content = found.content.filter((image) => !named.some((known) => known.url === image.url));
  const [namedProbes, contentProbes] = await Promise.all([probeAll(named, signal), probeAll(content, signal)]);
  // Of the main content's images only the largest real one counts: the others are thumbnails, swatches, logos.
  const largestContent = contentProbes
    .filter((result) => result.candidate)
    .sort((a, b) => b.candidate!.width * b.candidate!.height - a.candidate!.width * a.candidate!.height)[0];
  const usable = [...namedProbes, ...(largestContent ? [largestContent] : [])].filter((result) => result.candidate);
  const candidates = usable.filter((result, index) => usable.findIndex((other) => other.digest === result.digest) === index).map((result) => result.candidate!);
  if (candidates.length > 0) return candidates;

  const tooLargeProbe = [...namedProbes, ...contentProbes].find((result) => result.tooLarge)?.tooLarge;
  if (tooLargeProbe) throw tooLarge(tooLargeProbe.sizeBytes, IMPORT_IMAGE_MAX_BYTES);
  if (signal.aborted) throw refuse(422, 'timeout');
  throw refuse(422, 'noImage');
}

/** POST /imports: `pageUrl` is the pasted link as the request schema read it (webAddressOf: https:// when it had no scheme). */
export async function createImport(userId: string, pageUrl: string, now = () => Date.now()): Promise<ImportResponse> {
  await takeRequest(userId, 'imports');
  // One time limit for the whole import: the page, the Shopify JSON and every candidate's download.
  const candidates = await findCandidates(pageUrl, AbortSignal.timeout(FETCH_TIMEOUT_MS));
  const createdAt = now();
  const id = randomUUID();
  const expiresAtMs = createdAt + IMPORT_TTL_SECONDS * 1000;
  const stored: ImportCandidateRecord[] = candidates.map((candidate) => ({
    url: candidate.imageUrl,
    source: candidate.source,
    mime_type: candidate.mimeType,
    size_bytes: candidate.sizeBytes,
    width: candidate.width,
    height: candidate.height,
  }));
  await putImport({
    user_id: userId,
    id,
    page_url: pageUrl,
    candidates: stored,
    created_at: new Date(createdAt).toISOString(),
    expires_at: Math.floor(expiresAtMs / 1000),
  });
  log.info('import created', { importId: id, candidates: candidates.length });
  return { importId: id, pageUrl, candidates, expiresAt: new Date(expiresAtMs).toISOString() };
}

export async function selectImportImage(userId: string, importId: string, request: SelectImportRequest, now = () => Date.now()): Promise<ImportedImage> {
  if (!ImportId.safeParse(importId).success) throw refuse(404, 'expired');
  const record = await getLiveImport(userId, importId, now());
  if (!record) throw refuse(404, 'expired');
  const candidate = record.candidates.find((known) => known.url === request.imageUrl);
  if (!candidate) throw refuse(400, 'notACandidate');
  await takeRequest(userId, 'importSelections');

  const target = IMPORT_TARGETS[request.purpose];
  const fetched = await safeFetch(candidate.url, { maxBytes: IMPORT_IMAGE_MAX_BYTES, accept: IMAGE_ACCEPT }).catch((error: unknown) => {
    throw fetchRefusal(error, 'image', target.maxBytes);
  });
  if (fetched.bytes.length > target.maxBytes) throw tooLarge(fetched.bytes.length, target.maxBytes);
  const inspected = await inspectImageBytes(fetched.bytes, target.maxBytes);
  if ('code' in inspected) throw refusal(inspected);

  const imageKey = newUploadKey(userId, inspected.mimeType, now());
  await writeObject(target.bucket, imageKey, fetched.bytes, inspected.mimeType, { pendingUpload: true });
  return {
    imageKey,
    mimeType: inspected.mimeType,
    sizeBytes: fetched.bytes.length,
    width: inspected.width,
    height: inspected.height,
    expiresAt: await signedUrlExpiresAt(SIGNED_URL_SECONDS),
    previewUrl: await presignDownload(target.bucket, imageKey, inspected.mimeType, SIGNED_URL_SECONDS),
  };
}
