// Server state of generations (images, edits, upscales; videos and batch photos appear in the same history): the
// history reads, one generation followed until it ends, the upload of a source image, and the spending requests.
// Query keys start with 'generations', the realtime resource name, so a 'changed' notice refreshes them all;
// while something is processing they are also polled, so nothing depends on the socket being up.
import { CreateUploadUrlResponse, ListResponse, type LiveResource } from '@contracts/api';
import { PRICING_TIER_SEED, type PricingTierId } from '@contracts/catalog';
import { EditInstructions, Generation, GenerationStarted, type GenerationType } from '@contracts/generations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router-dom';
import { toast } from 'sonner';
import { ApiError, apiRequest, newIdempotencyKey } from './api';
import { useLoadErrorToast } from './load-error';
import { profileQueryKey, useSetBalance } from './profile';
import { useUser } from './session-context';
import { urlRefreshMs } from './signed-urls';
import { putWithProgress } from './uploads';

export const GENERATIONS_QUERY_ROOT = 'generations' satisfies LiveResource;

/** How often a list or a generation with work under way is read again (the fallback when no socket pushes). */
const PROCESSING_POLL_MS = 2_000;
/** Lists are read again well before their signed result URLs expire: when each row's URLs stop working. */
const urlsOf = (items: Generation[] | undefined) =>
  (items ?? []).map((item) => (item.result_url || item.thumbnail_url ? item.url_expires_at : null));

const anyProcessing = (items: Generation[] | undefined) => items?.some((item) => item.status === 'processing') ?? false;

/** What a tier costs, as the product is seeded; the server's pricing table decides what is really charged. */
export function tierCost(id: PricingTierId): number {
  return PRICING_TIER_SEED.find((tier) => tier.id === id)?.credits_cost ?? 1;
}

/** The caller's history, newest first (at most 100); `type` filters, `limit` shortens (usage: 10). */
export function useGenerations({ type, limit }: { type?: GenerationType; limit?: number } = {}) {
  const user = useUser();
  const params = new URLSearchParams();
  if (type) params.set('type', type);
  if (limit) params.set('limit', String(limit));
  const query = useQuery({
    queryKey: [GENERATIONS_QUERY_ROOT, user.userId, 'list', type ?? 'all', limit ?? 'default'],
    queryFn: async () => (await apiRequest(ListResponse(Generation), `/generations${params.size ? `?${params}` : ''}`)).items,
    refetchInterval: (current) => (anyProcessing(current.state.data) ? PROCESSING_POLL_MS : urlRefreshMs(urlsOf(current.state.data))),
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load generations');
  return query;
}

/** The caller's finished pictures, newest 20: what edit and upscale can start from. */
export function useImageResults() {
  const user = useUser();
  const query = useQuery({
    queryKey: [GENERATIONS_QUERY_ROOT, user.userId, 'picker'],
    queryFn: async () => (await apiRequest(ListResponse(Generation), '/generations?picker=true')).items,
    refetchInterval: (current) => urlRefreshMs(urlsOf(current.state.data)),
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load generations');
  return query;
}

/** One generation, read again every 2 s while it is processing. */
export function useGeneration(id: string | undefined) {
  const user = useUser();
  return useQuery({
    queryKey: [GENERATIONS_QUERY_ROOT, user.userId, 'one', id],
    queryFn: () => apiRequest(Generation, `/generations/${encodeURIComponent(id!)}`),
    enabled: id !== undefined,
    refetchInterval: (current) => (current.state.data?.status === 'processing' ? PROCESSING_POLL_MS : false),
  });
}

/** Opens the Edit screen's list of understood instructions and brings it into view. */
function showInstructionList(navigate: NavigateFunction) {
  navigate('/studio/generate/edit#edit-instructions');
  setTimeout(() => document.getElementById('edit-instructions')?.parentElement?.scrollIntoView({ block: 'center' }), 50);
}

/**
 * Follows a started generation until it ends. A failure shows `failureTitle` ('Generation Failed', 'Edit Failed',
 * 'Upscale Failed') with the generation's message, and the balance is read again (the refund).
 */
export function useFollowedGeneration(id: string | undefined, failureTitle: string) {
  const query = useGeneration(id);
  const queryClient = useQueryClient();
  const user = useUser();
  const reported = useRef<string | undefined>(undefined);
  const navigate = useNavigate();
  const generation = query.data;
  useEffect(() => {
    if (!generation || generation.status === 'processing' || reported.current === generation.id) return;
    reported.current = generation.id;
    void queryClient.invalidateQueries({ queryKey: [GENERATIONS_QUERY_ROOT, user.userId] });
    if (generation.status === 'failed') {
      // A refused edit instruction names itself in one line; the action opens the list of what is understood.
      const refusedInstruction = generation.operation === 'edit' && /edit instruction/i.test(generation.error_message ?? '');
      toast.error(failureTitle, {
        description: generation.error_message ?? undefined,
        action: refusedInstruction ? { label: 'Instruction list', onClick: () => showInstructionList(navigate) } : undefined,
      });
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    } else if (generation.params.clothingItemId) {
      // Its card counts one more use.
      void queryClient.invalidateQueries({ queryKey: ['clothing-items'] });
    }
  }, [generation, failureTitle, queryClient, user.userId, navigate]);
  return query;
}

/** What the edit engine understands (the local engine lists its instructions). */
export function useEditInstructions() {
  return useQuery({
    queryKey: ['edit-instructions'],
    queryFn: () => apiRequest(EditInstructions, '/edit-instructions', { anonymous: true }),
    staleTime: Infinity,
  });
}

/** Each picked file is uploaded once: retrying the same action reuses the stored file (and so its request). */
const uploads = new WeakMap<File, Promise<string>>();

/** Uploads a picked image for generations (presigned PUT, ≤ 10 MB) and answers its key. */
export function uploadGenerationImage(file: File, onProgress: (fraction: number) => void = () => undefined): Promise<string> {
  let upload = uploads.get(file);
  if (!upload) {
    upload = (async () => {
      const target = await apiRequest(CreateUploadUrlResponse, '/generation-uploads/upload-url', {
        method: 'POST',
        body: { fileName: file.name, contentType: file.type, sizeBytes: file.size },
      });
      await putWithProgress(target.uploadUrl, target.headers, file, onProgress);
      return target.imageKey;
    })();
    upload.catch(() => uploads.delete(file));
    uploads.set(file, upload);
  }
  return upload;
}

export type GenerationPath = '/generate-ai-image' | '/edit-ai-image' | '/upscale-ai-image';

/** A failure after which the same attempt may be sent again: the server may or may not have seen it. */
const isRetryable = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

/**
 * Sends a spending request. Each user action gets a fresh Idempotency-Key; sending the same request again after a
 * failure on the way (network, 5xx) reuses the key, so the server charges and generates once.
 */
export function useStartGeneration(path: GenerationPath) {
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const setBalance = useSetBalance();
  const queryClient = useQueryClient();
  const user = useUser();
  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>) => {
      const signature = JSON.stringify(body);
      if (attempt.current?.body !== signature) attempt.current = { body: signature, key: newIdempotencyKey() };
      return apiRequest(GenerationStarted, path, { method: 'POST', body, idempotencyKey: attempt.current.key });
    },
    onSuccess: (started) => {
      attempt.current = null;
      setBalance(started.remainingCredits);
      queryClient.setQueryData([GENERATIONS_QUERY_ROOT, user.userId, 'one', started.generationId], started.generation);
      void queryClient.invalidateQueries({ queryKey: [GENERATIONS_QUERY_ROOT, user.userId, 'list'] });
    },
    onError: (error) => {
      if (!isRetryable(error)) attempt.current = null;
    },
  });
  return mutation;
}
