// Server state of batches: the draft kept in the browser, the submit (one Idempotency-Key per user action, reused
// when the same draft is sent again after a failure on the way), one batch followed until its summary, and the zip.
// Query keys start with 'batches', the realtime resource name: the batch's own changes and its photos' (generations)
// refresh them; while a batch runs and the socket is down, they are polled instead.
import { type LiveResource } from '@contracts/api';
import { downloadBatchRoute, generateBatchRoute, getBatchRoute, listBatchesRoute, type CameraAngle, type GenerateBatchRequest } from '@contracts/batch';
import type { Marketplace } from '@contracts/marketplace';
import { BATCH_DEFAULT_BACKDROP, BATCH_DEFAULT_PROMPT, type ProductType } from '@contracts/catalog';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { useIdempotentMutation } from '@/lib/idempotent-mutation';
import { pollWhileDown, useLiveConnection } from '@/lib/live-connection';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

export const BATCHES_QUERY_ROOT = 'batches' satisfies LiveResource;
const RUNNING_POLL_MS = 2_000;

/**
 * One entry of the batch being composed: a clothing item, or one of the seller's finished images (`generationId`),
 * and its angles (client only, never stored).
 */
export interface BatchItem {
  id: string;
  clothingItemId?: string;
  generationId?: string;
  /** The item's name, or what the result is and when. */
  clothingItemName: string;
  /** What the entry's image shows: its item's product type unless changed; a draft kept from before is clothing. */
  productType?: ProductType;
  prompt: string;
  /** The entry's own saved model (its description replaces the prompt), and its name as the summary shows it. */
  modelId?: string;
  modelName?: string;
  modelDescription?: string;
  cameraAngles: CameraAngle[];
  /** The marketplace preset of the entry's 'Packshot' shot (absent without one). */
  marketplace?: Marketplace;
  backdrop: string;
}

export const BATCH_DRAFT_KEY = 'batchDraft';
export const ACTIVE_BATCH_KEY = 'activeBatch';
export const DEFAULT_ENTRY = { prompt: BATCH_DEFAULT_PROMPT, backdrop: BATCH_DEFAULT_BACKDROP };

export function readDraft(): BatchItem[] {
  try {
    const value = JSON.parse(localStorage.getItem(BATCH_DRAFT_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? (value as BatchItem[]).filter((item) => (typeof item?.clothingItemId === 'string' || typeof item?.generationId === 'string') && Array.isArray(item.cameraAngles)) : [];
  } catch {
    return [];
  }
}

export function writeDraft(items: BatchItem[]): void {
  if (items.length) localStorage.setItem(BATCH_DRAFT_KEY, JSON.stringify(items));
  else localStorage.removeItem(BATCH_DRAFT_KEY);
}

/** One batch, read again every 2 s while the socket is down until its summary is there and its zip is not building. */
export function useBatch(id: string | undefined) {
  const user = useUser();
  const live = useLiveConnection();
  return useQuery({
    queryKey: batchQueryKey(user.userId, id),
    queryFn: () => callRoute(getBatchRoute, { params: { id: id! } }),
    enabled: id !== undefined,
    refetchInterval: (current) => {
      const batch = current.state.data;
      return pollWhileDown(live, !batch?.summary || batch.download?.status === 'building', RUNNING_POLL_MS);
    },
  });
}

export const batchQueryKey = (userId: string, id: string | undefined) => [BATCHES_QUERY_ROOT, userId, 'one', id];

/** The newest 10 batches. */
export function useBatches() {
  const user = useUser();
  const live = useLiveConnection();
  const query = useQuery({
    queryKey: [BATCHES_QUERY_ROOT, user.userId, 'list'],
    queryFn: async () => (await callRoute(listBatchesRoute)).items,
    refetchInterval: (current) => pollWhileDown(live, current.state.data?.some((batch) => !batch.summary) ?? false, RUNNING_POLL_MS),
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load generations');
  return query;
}

export function useSubmitBatch() {
  return useIdempotentMutation({
    send: (body: GenerateBatchRequest, idempotencyKey) => callRoute(generateBatchRoute, { body, idempotencyKey }),
  });
}

/** Asks for the zip of a finished batch: its signed URL once built, else its job's state (the job starts if needed). */
export function requestBatchZip(id: string) {
  return callRoute(downloadBatchRoute, { params: { id } });
}
