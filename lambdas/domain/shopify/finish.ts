// The end of a publication's files and of the publication itself: the workflow's FileFailed and Finish, and
// workflow-ended for an execution that stopped short. No Shopify call here (nor its library in these functions).
import { SHOPIFY_MESSAGES, type Publication } from '../../contracts/shopify.js';
import type { PublishFileFailedInput, PublishFinishInput } from '../../contracts/workflows.js';
import { log } from '../../core/log.js';
import { finishPublication, getPublication, updateFile } from '../../data/publications-repo.js';
import { publicationView } from './views.js';

/** Task FileFailed (the Catch of PublishFile): the file fails with a message that reveals nothing inside. */
export async function publishFileFailed(input: PublishFileFailedInput): Promise<void> {
  const message = input.error?.Error === 'ShopifyUnavailable' ? SHOPIFY_MESSAGES.shopifyUnreachable : SHOPIFY_MESSAGES.fileFailed;
  log.warn('publication file failed unexpectedly', { userId: input.userId, publicationId: input.publicationId, index: input.index, error: input.error?.Error });
  await updateFile(input.userId, input.publicationId, input.index, { status: 'failed', error: message });
}

/**
 * Task Finish, and workflow-ended for an execution that stopped short: every file still pending fails with `reason`,
 * then the publication ends complete (all published), partial or failed (none) — once.
 */
export async function finishPublicationStep(input: PublishFinishInput, reason: string = SHOPIFY_MESSAGES.fileStopped): Promise<Publication | undefined> {
  const publication = await getPublication(input.userId, input.publicationId);
  if (!publication || publication.status !== 'publishing') return publication && publicationView(publication);
  const files = publication.files.map((file) => (file.status === 'pending' ? { ...file, status: 'failed' as const, error: reason } : file));
  const published = files.filter((file) => file.status === 'published').length;
  const status = published === files.length ? 'complete' : published === 0 ? 'failed' : 'partial';
  const ended = await finishPublication(input.userId, input.publicationId, status, files);
  if (ended) log.info('publication finished', { userId: input.userId, publicationId: input.publicationId, status, published, failed: files.length - published });
  return ended && publicationView(ended);
}
