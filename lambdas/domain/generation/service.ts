// The generation life cycle every image route shares (DESIGN §4: nothing long inside a request):
//   submit: validate → cost from the pricing tiers → record (processing) → debit → start the workflow → answer.
//   end:    the workflow completes the row, or fails it with a message people can read and refunds it once.
// Each step is keyed by the generation id (derived from the Idempotency-Key), so a retried request, a repeated
// task or a crash between steps never charges twice, never records twice and never refunds twice.
import type { Generation, GenerationOperation, GenerationParams, GenerationStarted, GenerationType } from '../../contracts/generations.js';
import { GENERATION_MESSAGES, GenerationId } from '../../contracts/generations.js';
import type { PricingTierId } from '../../contracts/catalog.js';
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { AppError, conflict, InsufficientCreditsError, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { startExecution } from '../../core/sfn.js';
import * as repo from '../../data/generations-repo.js';
import { tierCost } from '../../data/pricing-repo.js';
import { presignDownload } from '../../storage/presign.js';
import { debit, refund } from '../credits.js';
import type { ResolvedSource } from './sources.js';

export const GENERATION_WORKFLOW = 'generation';

/** What the workflow is started with: enough to find the row, nothing more (the row holds the rest). */
export interface GenerationWorkflowInput {
  userId: string;
  generationId: string;
}

export interface GenerationDraft {
  generationType: GenerationType;
  operation: GenerationOperation;
  aiModel: string;
  tier: PricingTierId;
  params: GenerationParams;
  /** The ledger line, e.g. 'Image generation (2K)'. */
  description: string;
  /** Finds (and for inline images stores) the input image; runs only when the generation is new. */
  resolveSource: (generationId: string) => Promise<ResolvedSource>;
}

export interface Submission {
  userId: string;
  idempotencyKey: string;
  /** A digest of the request body (the same key with another request is refused). */
  requestHash: string;
  /** The caller's balance as the request began. */
  balance: number;
}

const now = () => new Date().toISOString();

/** A row as the API answers it: result and thumbnail as signed GET URLs valid SIGNED_URL_SECONDS. */
export async function toGeneration(record: repo.GenerationRecord): Promise<Generation> {
  const sign = (key: string | undefined, contentType: string) =>
    key ? presignDownload('results', key, contentType, SIGNED_URL_SECONDS) : Promise.resolve(null);
  const resultType = record.result_content_type ?? null;
  const [resultUrl, thumbnailUrl] = await Promise.all([
    record.status === 'complete' && resultType ? sign(record.result_key, resultType) : null,
    sign(record.thumbnail_key, record.thumbnail_key?.endsWith('.jpg') ? 'image/jpeg' : 'image/webp'),
  ]);
  return {
    id: record.id,
    user_id: record.user_id,
    generation_type: record.generation_type,
    operation: record.operation,
    ai_model: record.ai_model,
    status: record.status,
    credits_used: record.credits_used,
    result_url: resultUrl,
    thumbnail_url: thumbnailUrl,
    result_content_type: resultType,
    error_message: record.error_message ?? null,
    created_at: record.created_at,
    completed_at: record.completed_at ?? null,
    width: record.width ?? null,
    height: record.height ?? null,
    params: record.params,
  };
}

export async function getGenerationView(userId: string, id: string): Promise<Generation> {
  const record = GenerationId.safeParse(id).success ? await repo.getGeneration(userId, id) : undefined;
  if (!record) throw notFound('This generation was not found.');
  return toGeneration(record);
}

export async function listGenerationViews(
  userId: string,
  query: { type?: GenerationType; limit: number; picker: boolean },
): Promise<Generation[]> {
  const records = query.picker
    ? await repo.listImageResults(userId, query.limit)
    : await repo.listGenerations(userId, { type: query.type, limit: query.limit });
  return Promise.all(records.map(toGeneration));
}

/** Records, charges and starts one generation; a retry of the same request answers the first attempt's generation. */
export async function submitGeneration(submission: Submission, draft: GenerationDraft): Promise<GenerationStarted> {
  const { userId } = submission;
  const id = repo.generationIdFor(userId, submission.idempotencyKey);
  const cost = await tierCost(draft.tier);

  let generation = await repo.getGeneration(userId, id);
  if (!generation) {
    if (submission.balance < cost) throw new InsufficientCreditsError(cost, submission.balance);
    const { source, clothingItemId } = await draft.resolveSource(id);
    ({ generation } = await repo.createGeneration({
      user_id: userId,
      id,
      generation_type: draft.generationType,
      operation: draft.operation,
      ai_model: draft.aiModel,
      status: 'processing',
      credits_used: cost,
      created_at: now(),
      params: draft.params,
      source,
      clothing_item_id: clothingItemId,
      request_hash: submission.requestHash,
    }));
  }
  if (generation.request_hash !== submission.requestHash) {
    throw conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request.');
  }

  let charge;
  try {
    // The first attempt charges; a retry replays the same ledger entry (and charges only if the first attempt
    // stopped between recording and charging).
    charge = await debit(userId, { idempotencyKey: submission.idempotencyKey, amount: generation.credits_used, description: draft.description, ref: id });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) await repo.discardUnchargedGeneration(userId, id);
    throw error;
  }

  if (generation.status === 'processing') {
    try {
      const input: GenerationWorkflowInput = { userId, generationId: id };
      await startExecution(GENERATION_WORKFLOW, id, input);
    } catch (error) {
      log.error('generation workflow not started', { generationId: id, error });
      await failAndRefund(userId, id, GENERATION_MESSAGES.genericFailure);
      throw new AppError(503, 'GENERATION_NOT_STARTED', 'The generation could not be started. Your credits were refunded. Please try again.');
    }
  }

  const view = await toGeneration(generation);
  return {
    generationId: id,
    status: view.status,
    remainingCredits: charge.entry.balance_after,
    ...(view.result_url ? { imageUrl: view.result_url } : {}),
    generation: view,
  };
}

/**
 * Ends a generation as failed with `message` and refunds what it cost. A generation that already failed (or was
 * cancelled) is only made whole: the refund is keyed by the generation, so it is applied once. A complete one is
 * left alone.
 */
export async function failAndRefund(userId: string, id: string, message: string): Promise<repo.GenerationRecord | undefined> {
  const { generation } = await repo.failGeneration(userId, id, message);
  if (generation?.status !== 'failed') return generation;
  if (generation.credits_used > 0) {
    await refund(userId, { ref: id, amount: generation.credits_used, description: `Refund: ${OPERATION_LABELS[generation.operation]} failed` });
  }
  return generation;
}

export const OPERATION_LABELS: Record<GenerationOperation, string> = {
  'on-model': 'image generation',
  edit: 'image edit',
  upscale: 'upscale',
  video: 'video generation',
  batch: 'batch photo',
};
