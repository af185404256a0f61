// Server state of generations (images, edits, upscales; videos and batch photos appear in the same history): the
// history reads, one generation followed until it ends, the upload of a source image, and the spending requests.
// Query keys start with 'generations', the realtime resource name, so a 'changed' notice refreshes them all;
// while something is processing and the socket is down, they are polled instead.
import type { generatePackshotRoute } from '@contracts/packshots';
import { type LiveResource } from '@contracts/api';
import {
  createGenerationUploadUrlRoute,
  editAiImageRoute,
  generateAiImageRoute,
  getEditInstructionsRoute,
  getGenerationRoute,
  listGenerationsRoute,
  upscaleAiImageRoute,
  Generation,
  type GenerationType,
} from '@contracts/generations';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router-dom';
import type * as z from 'zod';
import { toast } from 'sonner';
import { callRoute, type CallOptions } from './api';
import { clothingItemsQueryOptions } from './clothing-items';
import { SAME_REQUEST_WINDOW_MS, useIdempotentMutation } from './idempotent-mutation';
import { pollWhileDown, useLiveConnection, type LiveConnection } from './live-connection';
import { useLoadErrorToast } from './load-error';
import { profileQueryKey, useSetBalance } from './profile';
import { useUser } from './session-context';
import { urlRefreshMs } from './signed-urls';
import { putWithProgress } from './uploads';
import { editInstructionsPath } from './paths';
import { dismissStaleErrors } from './stale-errors';
import { formatDateTime } from './format';

export const GENERATIONS_QUERY_ROOT = 'generations' satisfies LiveResource;

/** How often a list or a generation with work under way is read again (the fallback when no socket pushes). */
const PROCESSING_POLL_MS = 2_000;
/** Lists are read again well before their signed result URLs expire: when each row's URLs stop working. */
const urlsOf = (items: Generation[] | undefined) =>
  (items ?? []).map((item) => (item.result_url || item.thumbnail_url ? item.url_expires_at : null));

const anyProcessing = (items: Generation[] | undefined) => items?.some((item) => item.status === 'processing') ?? false;

/** The keys of the caller's generation queries: all of them, and the history lists. */
export const generationKeys = {
  all: (userId: string) => [GENERATIONS_QUERY_ROOT, userId] as const,
  lists: (userId: string) => [GENERATIONS_QUERY_ROOT, userId, 'list'] as const,
};

/** The caller's history, newest first (at most 100); `type` filters, `limit` shortens (usage: 10). */
export const generationsQueryOptions = (
  userId: string,
  { type, limit }: { type?: GenerationType; limit?: number } = {},
  live: LiveConnection = 'down',
) => {
  const params = new URLSearchParams();
  if (type) params.set('type', type);
  if (limit) params.set('limit', String(limit));
  return queryOptions({
    queryKey: [...generationKeys.lists(userId), type ?? 'all', limit ?? 'default'] as const,
    queryFn: async () => (await callRoute(listGenerationsRoute, { query: Object.fromEntries(params) })).items,
    refetchInterval: (query) =>
      pollWhileDown(live, anyProcessing(query.state.data), PROCESSING_POLL_MS) || urlRefreshMs(urlsOf(query.state.data)),
  });
};

export function useGenerations(scope: { type?: GenerationType; limit?: number } = {}) {
  const user = useUser();
  const query = useQuery(generationsQueryOptions(user.userId, scope, useLiveConnection()));
  useLoadErrorToast(query.error, 'Error', 'Failed to load generations');
  return query;
}

/** The caller's finished pictures, newest 20: what edit and upscale can start from. */
export const imageResultsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [...generationKeys.all(userId), 'picker'] as const,
    queryFn: async () => (await callRoute(listGenerationsRoute, { query: { picker: 'true' } })).items,
    refetchInterval: (query) => urlRefreshMs(urlsOf(query.state.data)),
  });

/**
 * Pictures whose titles are the same (the same product, size and marketplace made twice) told apart in a picker by
 * when each was made ("… · Nov 12, 2026, 2:02 PM"), and by a number when even that is the same.
 */
export function distinctTitles(generations: Generation[]): Generation[] {
  const count = (titles: string[], title: string) => titles.filter((other) => other === title).length;
  const titles = generations.map((generation) => generation.title);
  const dated = generations.map((generation, index) =>
    count(titles, titles[index]!) > 1 ? `${generation.title} · ${formatDateTime(generation.created_at)}` : generation.title,
  );
  return generations.map((generation, index) => {
    const title = dated[index]!;
    if (count(dated, title) === 1) return generation.title === title ? generation : { ...generation, title };
    // Newest first: the oldest of the same title is (1).
    const older = dated.slice(index + 1).filter((other) => other === title).length;
    return { ...generation, title: `${title} (${older + 1})` };
  });
}

export function useImageResults() {
  const user = useUser();
  const query = useQuery({ ...imageResultsQueryOptions(user.userId), select: distinctTitles });
  useLoadErrorToast(query.error, 'Error', 'Failed to load generations');
  return query;
}

/** One generation, read again every 2 s while it is processing and the socket is down. */
export const generationQueryOptions = (userId: string, id: string | undefined, live: LiveConnection = 'down') =>
  queryOptions({
    queryKey: [...generationKeys.all(userId), 'one', id] as const,
    queryFn: () => callRoute(getGenerationRoute, { params: { id: id! } }),
    enabled: id !== undefined,
    refetchInterval: (query) => pollWhileDown(live, query.state.data?.status === 'processing', PROCESSING_POLL_MS),
  });

export function useGeneration(id: string | undefined) {
  const user = useUser();
  return useQuery(generationQueryOptions(user.userId, id, useLiveConnection()));
}

/** Opens the Edit screen's list of understood instructions and brings it into view. */
function showInstructionList(navigate: NavigateFunction) {
  navigate(editInstructionsPath);
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
    void queryClient.invalidateQueries({ queryKey: generationKeys.all(user.userId) });
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
      void queryClient.invalidateQueries({ queryKey: clothingItemsQueryOptions(user.userId).queryKey });
    }
  }, [generation, failureTitle, queryClient, user.userId, navigate]);
  return query;
}

/** What the edit engine understands (the local engine lists its instructions). */
export const editInstructionsQueryOptions = () =>
  queryOptions({
    queryKey: ['edit-instructions'] as const,
    queryFn: () => callRoute(getEditInstructionsRoute),
    staleTime: Infinity,
  });

export function useEditInstructions() {
  return useQuery(editInstructionsQueryOptions());
}

/** Each picked file is uploaded once: retrying the same action reuses the stored file (and so its request). */
const uploads = new WeakMap<File, Promise<string>>();

/** Uploads a picked image for generations (presigned PUT, ≤ 10 MB) and answers its key. */
export function uploadGenerationImage(file: File, onProgress: (fraction: number) => void = () => undefined): Promise<string> {
  let upload = uploads.get(file);
  if (!upload) {
    upload = (async () => {
      const target = await callRoute(createGenerationUploadUrlRoute, { body: { fileName: file.name, contentType: file.type, sizeBytes: file.size } });
      await putWithProgress(target.uploadUrl, target.headers, file, onProgress);
      dismissStaleErrors();
      return target.imageKey;
    })();
    upload.catch(() => uploads.delete(file));
    uploads.set(file, upload);
  }
  return upload;
}

/** The spending routes a screen starts a generation with (each answers a GenerationStarted). */
export type GenerationRoute = typeof generateAiImageRoute | typeof editAiImageRoute | typeof upscaleAiImageRoute | typeof generatePackshotRoute;

/**
 * Sends a spending request. Each user action gets a fresh Idempotency-Key; sending the same request again after a
 * failure on the way (network, 5xx) reuses the key, so the server charges and generates once.
 */
export function useStartGeneration<R extends GenerationRoute>(route: R) {
  const setBalance = useSetBalance();
  const queryClient = useQueryClient();
  const user = useUser();
  return useIdempotentMutation({
    // A second click on the same unchanged form is the same request: the server replays it rather than charging.
    sameRequestWindowMs: SAME_REQUEST_WINDOW_MS,
    send: (body: z.input<R['body']>, idempotencyKey) =>
      // One of three routes whose options differ only in the body's type, which `body` already has.
      callRoute(route as GenerationRoute, { body, idempotencyKey } as CallOptions<GenerationRoute>),
    onSuccess: (started) => {
      setBalance(started.remainingCredits);
      queryClient.setQueryData(generationQueryOptions(user.userId, started.generationId).queryKey, started.generation);
      void queryClient.invalidateQueries({ queryKey: generationKeys.lists(user.userId) });
    },
  });
}
