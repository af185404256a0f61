// Publishing finished results to products' media. The route checks everything that can be checked before anything
// is sent (the shop is the caller's and connected, each result is theirs and finished, each file is within Shopify's
// media limits, each product exists), records the publication and starts the publish workflow
// (lib/workflows/publish.asl.json, execution name = publication id). The workflow publishes one file at a time, in the
// order given: each step is PublishFile, which moves its file one stage on and says what next ('done', or 'wait' so
// many seconds: Shopify still processing the file, or its rate limit), so no function ever sleeps.
//
// One file, following "Manage media for products and collections" (shopify.dev/docs/apps/build/
// product-merchandising/products-and-collections/manage-media, read 2026-11-27):
//   1. the file's name in the shop is its idempotency key (`modelloop-<generation id>.<ext>`): an earlier attempt's
//      file is found by that name (files(query: "filename:…")) and nothing is uploaded again;
//   2. else stagedUploadsCreate, a multipart POST of the bytes to the target, fileCreate (alt = the result's title);
//   3. wait until the file is READY (or say why Shopify failed it);
//   4. fileUpdate(referencesToAdd: product) adds it to the product's media;
//   5. placement 'first': productReorderMedia moves it to the front, after the files of this publication before it;
//   6. the file is recorded published (the publication's file, and the place on the result's card and in History).
// A retried step starts over from what the publication recorded, and Shopify's own state (the file by its name, a
// product that already shows it) makes each stage safe to repeat.
import { createHash, randomUUID } from 'node:crypto';
import type { Session } from '@shopify/shopify-api';
import type { PublishFileInput } from '../../contracts/workflows.js';
import {
  mediaLimitProblem,
  SHOPIFY_CODES,
  SHOPIFY_MESSAGES,
  type PublishRequest,
} from '../../contracts/shopify.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import { Reply, type Caller } from '../../core/http.js';
import { log } from '../../core/log.js';
import { startExecution } from '../../core/sfn.js';
import { getGeneration, recordPublishedPlace, type GenerationRecord } from '../../data/generations-repo.js';
import {
  createPublication,
  getPublication,
  putMatches,
  updateFile,
  PUBLICATION_PREFIX,
  type PublicationFileRecord,
  type PublicationRecord,
} from '../../data/publications-repo.js';
import { getShop } from '../../data/shops-repo.js';
import { objectSize, readObject } from '../../storage/objects.js';
import { recordedTitle } from '../generation/titles.js';
import {
  adminRequest,
  FILE_BY_NAME,
  FILE_CREATE,
  FILE_STATUS,
  FILE_UPDATE,
  PRODUCT_REORDER_MEDIA,
  PRODUCTS_BY_ID,
  refuseOnUserErrors,
  ShopifyRefused,
  ShopifyThrottled,
  ShopifyUnavailable,
  shopifyWords,
  STAGED_UPLOADS_CREATE,
} from './admin.js';
import { productAdminUrl, shopifyFetch, shopifyUrl } from './app.js';
import { connectedShop, offlineSession } from './tokens.js';
import { publicationView } from './views.js';

/** The most times a file is waited on (Shopify's processing, its throttle): about half an hour for a video. */
export const MAX_FILE_WAITS = 180;
/** Seconds between two looks at a file Shopify is still processing. */
const PROCESSING_WAIT_SECONDS = { image: 2, video: 10 } as const;
/** The longest wait after a throttled answer, however many there were. */
const MAX_THROTTLE_WAIT_SECONDS = 60;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4' };
const isVideo = (contentType: string) => contentType.startsWith('video/');

/** The file's name in the shop: one result is one file there, whichever products show it. */
export const shopFileName = (generationId: string, contentType: string) => `modelloop-${generationId}.${EXTENSIONS[contentType] ?? 'bin'}`;

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

interface CheckedResult {
  record: GenerationRecord;
  contentType: string;
  bytes: number;
}

/** POST /publications: 202 with the publication (the one a retried request with the same Idempotency-Key made). */
export async function startPublication(caller: Caller, body: PublishRequest & { placement: 'first' | 'last' }, idempotencyKey: string): Promise<Reply> {
  const userId = caller.userId;
  const requestHash = hashOf(JSON.stringify(body));
  const id = `${PUBLICATION_PREFIX}${idempotencyKey ? hashOf(`${userId}\n${idempotencyKey}`).slice(0, 24) : randomUUID().replace(/-/g, '').slice(0, 24)}`;
  if (idempotencyKey) {
    const earlier = await getPublication(userId, id);
    if (earlier) {
      if (earlier.request_hash !== requestHash) throw conflict(SHOPIFY_CODES.keyReused, SHOPIFY_MESSAGES.keyReused);
      return new Reply(202, publicationView(earlier));
    }
  }
  const shop = await connectedShop(userId, body.shop);
  const results = await checkResults(userId, [...new Set(body.files.map((file) => file.generationId))]);
  const products = await productsOf(await offlineSession(shop), [...new Set(body.files.map((file) => file.productId))]);

  const record: PublicationRecord = {
    user_id: userId,
    id,
    shop: body.shop,
    status: 'publishing',
    placement: body.placement,
    created_at: new Date().toISOString(),
    request_hash: requestHash,
    files: body.files.map(({ generationId, productId }) => {
      const { contentType } = results.get(generationId)!;
      return {
        generation_id: generationId,
        product_id: productId,
        product_title: products.get(productId)!.title,
        content_type: contentType,
        file_name: shopFileName(generationId, contentType),
        status: 'pending',
      };
    }),
  };
  const { created, publication } = await createPublication(record);
  if (!created && publication.request_hash !== requestHash) throw conflict(SHOPIFY_CODES.keyReused, SHOPIFY_MESSAGES.keyReused);
  if (created) {
    await rememberMatches(userId, body.shop, body.files, results, products);
    await startExecution('publish', id, { userId, publicationId: id, files: record.files.map((_, index) => index) });
    log.info('publication started', { userId, publicationId: id, shop: body.shop, files: record.files.length });
  }
  return new Reply(202, publicationView(publication));
}

/** Each result: the caller's, finished, of a type Shopify takes, within its limits (checked on the stored bytes). */
async function checkResults(userId: string, generationIds: string[]): Promise<Map<string, CheckedResult>> {
  const checked = new Map<string, CheckedResult>();
  for (const generationId of generationIds) {
    const record = await getGeneration(userId, generationId);
    if (!record) throw notFound(`The result ${generationId} was not found.`);
    if (record.status !== 'complete' || !record.result_key || !record.result_content_type) throw conflict(SHOPIFY_CODES.notFinished, SHOPIFY_MESSAGES.notFinished);
    const bytes = await objectSize('results', record.result_key);
    if (bytes === undefined) throw conflict(SHOPIFY_CODES.notFinished, SHOPIFY_MESSAGES.notFinished);
    const seconds = typeof record.params.duration === 'number' ? record.params.duration : null;
    const problem = mediaLimitProblem({ contentType: record.result_content_type, bytes, width: record.width, height: record.height, seconds });
    if (problem) throw new AppError(problem.code === SHOPIFY_CODES.fileTooLarge ? 413 : 400, problem.code, `${recordedTitle(record)}: ${problem.message}`);
    checked.set(generationId, { record, contentType: record.result_content_type, bytes });
  }
  return checked;
}

interface ProductFacts {
  title: string;
  imageUrl: string | null;
}

/** The products, as the shop knows them now; 400 PRODUCT_NOT_FOUND for one it doesn't. */
async function productsOf(session: Session, ids: string[]): Promise<Map<string, ProductFacts>> {
  type Node = { id: string; title: string; featuredMedia?: { preview?: { image?: { url: string } | null } | null } | null } | null;
  let nodes: Node[];
  try {
    ({ nodes } = await adminRequest<{ nodes: Node[] }>(session, PRODUCTS_BY_ID, { ids }));
  } catch (error) {
    throw routeError(error);
  }
  const products = new Map<string, ProductFacts>();
  ids.forEach((id, index) => {
    const node = nodes[index];
    if (!node?.title) throw new AppError(400, SHOPIFY_CODES.productNotFound, `${SHOPIFY_MESSAGES.productNotFound} (${id})`);
    products.set(id, { title: node.title, imageUrl: node.featuredMedia?.preview?.image?.url ? shopifyUrl(node.featuredMedia.preview.image.url) : null });
  });
  return products;
}

/** A Shopify failure while answering a request: a clear 4xx/5xx the seller can act on. */
export function routeError(error: unknown): unknown {
  if (error instanceof ShopifyThrottled) return new AppError(429, SHOPIFY_CODES.shopifyBusy, SHOPIFY_MESSAGES.shopifyBusy, { 'retry-after': String(error.waitSeconds) });
  if (error instanceof ShopifyUnavailable) return new AppError(502, SHOPIFY_CODES.shopifyUnreachable, SHOPIFY_MESSAGES.shopifyUnreachable);
  if (error instanceof ShopifyRefused) return new AppError(400, SHOPIFY_CODES.shopifyRefused, `Shopify: ${error.userMessage}`);
  return error;
}

/** Each library item's product in this shop is remembered, so the next batch offers it again. */
async function rememberMatches(userId: string, shop: string, files: PublishRequest['files'], results: Map<string, CheckedResult>, products: Map<string, ProductFacts>): Promise<void> {
  const updatedAt = new Date().toISOString();
  const byItem = new Map<string, string>();
  for (const { generationId, productId } of files) {
    const itemId = results.get(generationId)!.record.clothing_item_id;
    if (itemId) byItem.set(itemId, productId);
  }
  await putMatches(
    [...byItem].map(([itemId, productId]) => ({
      user_id: userId,
      shop,
      clothing_item_id: itemId,
      product_id: productId,
      product_title: products.get(productId)!.title,
      image_url: products.get(productId)!.imageUrl,
      updated_at: updatedAt,
    })),
  );
}

// ——— The workflow's tasks ———

export type PublishFileOutcome = PublishFileInput & { outcome: 'done' | 'wait'; waitSeconds?: number };

/** Task PublishFile: moves one file as far as it goes now; 'wait' when Shopify needs time. */
export async function publishFileStep(input: PublishFileInput): Promise<PublishFileOutcome> {
  const { userId, publicationId, index } = input;
  const waits = input.waits ?? 0;
  const done = (): PublishFileOutcome => ({ ...input, outcome: 'done' });
  const wait = (seconds: number): Promise<PublishFileOutcome> | PublishFileOutcome =>
    waits >= MAX_FILE_WAITS ? fail(SHOPIFY_MESSAGES.fileTimedOut) : { ...input, waits: waits + 1, outcome: 'wait', waitSeconds: seconds };
  const fail = async (message: string): Promise<PublishFileOutcome> => {
    await updateFile(userId, publicationId, index, { status: 'failed', error: message });
    log.info('publication file failed', { userId, publicationId, index, message });
    return done();
  };

  const publication = await getPublication(userId, publicationId);
  const file = publication?.status === 'publishing' ? publication.files[index] : undefined;
  if (!publication || !file || file.status !== 'pending') return done();
  const shop = await getShop(publication.shop);
  if (!shop || shop.user_id !== userId || shop.status !== 'connected') return fail(shop?.status === 'uninstalled' ? SHOPIFY_MESSAGES.uninstalled : SHOPIFY_MESSAGES.notConnected);

  try {
    const session = await offlineSession(shop);
    const fileId = file.file_id ?? (await existingFile(session, file.file_name)) ?? (await uploadFile(session, userId, file));
    if (!file.file_id) await updateFile(userId, publicationId, index, { file_id: fileId });

    const status = await fileStatus(session, fileId);
    if (status.fileStatus === 'FAILED') return fail(`Shopify could not process the file: ${shopifyWords(status.fileErrors[0]?.message ?? 'no reason given')}`);
    if (status.fileStatus !== 'READY') return wait(PROCESSING_WAIT_SECONDS[isVideo(file.content_type) ? 'video' : 'image']);

    const { fileUpdate } = await adminRequest<{ fileUpdate: { userErrors: { message: string; code?: string }[] } }>(session, FILE_UPDATE, {
      files: [{ id: fileId, referencesToAdd: [file.product_id] }],
    });
    refuseOnUserErrors(fileUpdate.userErrors);
    if (publication.placement === 'first') {
      const before = publication.files.slice(0, index).filter((other) => other.product_id === file.product_id).length;
      const { productReorderMedia } = await adminRequest<{ productReorderMedia: { mediaUserErrors: { message: string; code?: string }[] } }>(session, PRODUCT_REORDER_MEDIA, {
        id: file.product_id,
        moves: [{ id: fileId, newPosition: String(before) }],
      });
      refuseOnUserErrors(productReorderMedia.mediaUserErrors);
    }

    const adminUrl = productAdminUrl(publication.shop, file.product_id);
    await updateFile(userId, publicationId, index, { status: 'published', admin_url: adminUrl }, ['error']);
    await recordPublishedPlace(userId, file.generation_id, {
      shop: publication.shop,
      product_id: file.product_id,
      product_title: file.product_title,
      admin_url: adminUrl,
      published_at: new Date().toISOString(),
    });
    log.info('publication file published', { userId, publicationId, index, shop: publication.shop });
    return done();
  } catch (error) {
    if (error instanceof ShopifyThrottled) {
      // Shopify's own figure, and never less than a doubling backoff over the waits so far.
      return wait(Math.min(MAX_THROTTLE_WAIT_SECONDS, Math.max(error.waitSeconds, 2 ** Math.min(waits, 5))));
    }
    if (error instanceof ShopifyRefused) return fail(`Shopify: ${error.userMessage}`);
    if (error instanceof AppError) return fail(error.message);
    // ShopifyUnavailable and our own faults: the workflow's Retry, then its Catch (publishFileFailed).
    throw error;
  }
}

/** The file an earlier attempt created under this name, if any. */
async function existingFile(session: Session, fileName: string): Promise<string | undefined> {
  const { files } = await adminRequest<{ files: { nodes: { id: string }[] } }>(session, FILE_BY_NAME, { query: `filename:"${fileName}"` });
  return files.nodes[0]?.id;
}

/** Staged upload, multipart POST, fileCreate: the new file's id. */
async function uploadFile(session: Session, userId: string, file: PublicationFileRecord): Promise<string> {
  const generation = await getGeneration(userId, file.generation_id);
  if (!generation?.result_key) throw new AppError(409, SHOPIFY_CODES.notFinished, SHOPIFY_MESSAGES.notFinished);
  const bytes = await readObject('results', generation.result_key);
  const video = isVideo(file.content_type);
  const { stagedUploadsCreate } = await adminRequest<{
    stagedUploadsCreate: { stagedTargets: { url: string; resourceUrl: string; parameters: { name: string; value: string }[] }[] | null; userErrors: { message: string }[] };
  }>(session, STAGED_UPLOADS_CREATE, {
    input: [{ filename: file.file_name, mimeType: file.content_type, httpMethod: 'POST', resource: video ? 'VIDEO' : 'IMAGE', fileSize: String(bytes.length) }],
  });
  refuseOnUserErrors(stagedUploadsCreate.userErrors);
  const target = stagedUploadsCreate.stagedTargets?.[0];
  if (!target) throw new ShopifyRefused('Shopify gave no place to upload the file to.');

  const form = new FormData();
  for (const { name, value } of target.parameters) form.append(name, value);
  form.append('file', new Blob([bytes], { type: file.content_type }), file.file_name);
  let upload: Response;
  try {
    upload = await shopifyFetch(target.url, { method: 'POST', body: form });
  } catch {
    throw new ShopifyUnavailable();
  }
  if (upload.status >= 500) throw new ShopifyUnavailable(upload.status);
  if (!upload.ok) throw new ShopifyRefused(`Shopify's storage refused the upload (HTTP ${upload.status}).`);

  const { fileCreate } = await adminRequest<{ fileCreate: { files: { id: string }[] | null; userErrors: { message: string; code?: string }[] } }>(session, FILE_CREATE, {
    files: [{ originalSource: target.resourceUrl, contentType: video ? 'VIDEO' : 'IMAGE', filename: file.file_name, alt: recordedTitle(generation) }],
  });
  refuseOnUserErrors(fileCreate.userErrors);
  const created = fileCreate.files?.[0];
  if (!created) throw new ShopifyRefused('Shopify created no file.');
  return created.id;
}

async function fileStatus(session: Session, fileId: string): Promise<{ fileStatus: string; fileErrors: { message: string }[] }> {
  const { node } = await adminRequest<{ node: { fileStatus: string; fileErrors: { message: string }[] } | null }>(session, FILE_STATUS, { id: fileId });
  // A file deleted in the shop since it was created: as good as failed.
  return node ?? { fileStatus: 'FAILED', fileErrors: [{ message: 'the file was deleted in the shop' }] };
}
