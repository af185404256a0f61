// The generation life cycle every image route shares (nothing long runs inside a request, which API Gateway cuts at
// about 29 s):
//   submit: check the request → the one spending flow (charge → record (processing) → start the workflow) → answer.
//   end:    the workflow completes the row, or fails it with a message people can read and refunds it once.
// The row stores the debit that paid for it, and its refund names that debit and is keyed by the generation, so a
// retried request, a repeated task or a crash between steps never charges, records or refunds twice.
import type { Generation, GenerationOperation, GenerationParams, GenerationStarted, GenerationType } from '../../contracts/generations.js';
import { GENERATION_MESSAGES, GenerationId } from '../../contracts/generations.js';
import type { PricingTierId } from '../../contracts/catalog.js';
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { AppError, notFound } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { emitMetrics } from '../../core/metrics.js';
import { startExecution } from '../../core/sfn.js';
import * as repo from '../../data/generations-repo.js';
import { tierCost } from '../../data/pricing-repo.js';
import { presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { refund } from '../credits.js';
import { spend, type SpendingRequest } from '../spending.js';
import { endGenerationPlace } from './places.js';
import { recordedTitle } from './titles.js';
import { generationFileName } from '../../contracts/file-names.js';
import type { PreparedSource } from '../images/source.js';
import type { GenerationTaskInput } from '../../contracts/workflows.js';

export const GENERATION_WORKFLOW = 'generation';

/** What the workflow is started with: enough to find the row, nothing more (the row holds the rest). */
export type GenerationWorkflowInput = GenerationTaskInput;

export interface GenerationDraft {
  generationType: GenerationType;
  operation: GenerationOperation;
  aiModel: string;
  tier: PricingTierId;
  params: GenerationParams;
  /** The ledger line, e.g. 'Image generation (2K)'. */
  description: string;
  /** The input image, already checked; it is stored (if it must be) only once the generation is charged. */
  source: PreparedSource;
  /** The saved model the request named, checked to be the caller's. */
  model?: repo.ModelSnapshot;
  /** What the pickers call it (titles.ts), when it is not read from its params (an edit's or upscale's source name). */
  title?: string;
}

const now = () => new Date().toISOString();

/** A row as the API answers it: result and thumbnail as signed GET URLs valid SIGNED_URL_SECONDS. */
export async function toGeneration(record: repo.GenerationRecord): Promise<Generation> {
  const sign = (key: string | undefined, contentType: string) =>
    key ? presignDownload('results', key, contentType, SIGNED_URL_SECONDS) : Promise.resolve(null);
  const resultType = record.result_content_type ?? null;
  const urlExpiresAt = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
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
    // A failed image or batch photo is refunded in full by the step that failed it (failAndRefund, FailPhoto).
    credits_refunded: record.credits_refunded ?? (record.status === 'failed' ? record.credits_used : 0),
    result_url: resultUrl,
    thumbnail_url: thumbnailUrl,
    url_expires_at: urlExpiresAt,
    result_content_type: resultType,
    file_name: resultType ? generationFileName({ ...record, width: record.width ?? null, height: record.height ?? null, result_content_type: resultType }) : null,
    error_message: record.error_message ?? null,
    created_at: record.created_at,
    completed_at: record.completed_at ?? null,
    width: record.width ?? null,
    height: record.height ?? null,
    params: record.params,
    ...(record.not_rendered?.length ? { not_rendered: record.not_rendered } : {}),
    model: record.model ? { id: record.model.id, name: record.model.name } : null,
    ...(record.compliance ? { compliance: record.compliance } : {}),
    title: recordedTitle(record),
    ...(record.published ? { published: Object.values(record.published).sort((a, b) => a.published_at.localeCompare(b.published_at)) } : {}),
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

/** Charges, records and starts one generation; a retry of the same request answers the first attempt's generation. */
export async function submitGeneration(spending: SpendingRequest, draft: GenerationDraft): Promise<GenerationStarted> {
  const { userId } = spending;
  const spent = await spend(spending, {
    cost: await tierCost(draft.tier),
    description: draft.description,
    running: 'image',
    record: async (id, debitId) =>
      (await repo.getGeneration(userId, id)) ??
      (
        await repo.createGeneration({
          user_id: userId,
          id,
          generation_type: draft.generationType,
          operation: draft.operation,
          ai_model: draft.aiModel,
          status: 'processing',
          credits_used: await tierCost(draft.tier),
          created_at: now(),
          params: draft.params,
          source: await draft.source.place(id),
          clothing_item_id: draft.source.clothingItemId,
          debit_id: debitId,
          ...(draft.model ? { model: draft.model } : {}),
          ...(draft.title ? { title: draft.title } : {}),
        })
      ).generation,
    start: startGeneration,
  });
  const view = await toGeneration(spent.record);
  return {
    generationId: spent.recordId,
    status: view.status,
    remainingCredits: spent.balanceAfter,
    ...(view.result_url ? { imageUrl: view.result_url } : {}),
    generation: view,
  };
}

async function startGeneration(generation: repo.GenerationRecord): Promise<void> {
  if (generation.status !== 'processing') return;
  try {
    const input: GenerationWorkflowInput = { userId: generation.user_id, generationId: generation.id, operation: generation.operation };
    await startExecution(GENERATION_WORKFLOW, generation.id, input);
  } catch (error) {
    log.error('generation workflow not started', { generationId: generation.id, error });
    await failAndRefund(generation.user_id, generation.id, GENERATION_MESSAGES.genericFailure);
    throw new AppError(503, 'GENERATION_NOT_STARTED', 'The generation could not be started. Your credits were refunded. Please try again.');
  }
}

/**
 * Ends a generation as failed with `message`, refunds what it cost and gives back its running place. A generation
 * that already failed (or was cancelled) is only made whole: the refund is keyed by the generation, so it is applied
 * once. A complete one only has its place given back.
 */
export async function failAndRefund(userId: string, id: string, message: string): Promise<repo.GenerationRecord | undefined> {
  const { generation, changed } = await repo.failGeneration(userId, id, message);
  if (changed && generation) emitMetrics({ GenerationsFailed: 1 }, { type: generation.operation });
  if (generation?.status !== 'failed') {
    if (generation) await endGenerationPlace(generation);
    return generation;
  }
  if (generation.credits_used > 0 && generation.debit_id) {
    await refund(userId, {
      type: generation.operation,
      debitId: generation.debit_id,
      ref: id,
      amount: generation.credits_used,
      description: `Refund: ${OPERATION_LABELS[generation.operation]} failed`,
    });
  }
  await endGenerationPlace(generation);
  await repo.settledFailure(userId, id);
  return generation;
}

export const OPERATION_LABELS: Record<GenerationOperation, string> = {
  'on-model': 'image generation',
  edit: 'image edit',
  upscale: 'upscale',
  video: 'video generation',
  batch: 'batch photo',
  packshot: 'packshot',
};
