// The caller's saved models as one cached list: the Models screen, the model choice of Image Generation and Batch,
// and "Save this model" on a finished picture read and refresh the same query.
import { createModelRoute, listModelsRoute } from '@contracts/models';
import { type CreateModelRequest } from '@contracts/models';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callRoute } from './api';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';
import { urlRefreshMs } from './signed-urls';

export const savedModelsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['models', userId] as const,
    queryFn: async () => (await callRoute(listModelsRoute)).items,
    // Read again well before the portraits' signed URLs expire.
    refetchInterval: (query) => urlRefreshMs((query.state.data ?? []).map((model) => (model.preview_url ? model.url_expires_at : null))),
  });

export function useSavedModels() {
  const user = useUser();
  const query = useQuery(savedModelsQueryOptions(user.userId));
  useLoadErrorToast(query.error, 'Error', 'Failed to load models');
  return query;
}

/** Reads the models list again (after the caller's own changes). */
export function useRefreshSavedModels() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: savedModelsQueryOptions(user.userId).queryKey }), [queryClient, user.userId]);
}

/** POST /models: a new model from words, an uploaded portrait (with the rights confirmation) or a finished picture. */
export function useCreateModel() {
  const refresh = useRefreshSavedModels();
  return useMutation({
    mutationFn: (body: CreateModelRequest) => callRoute(createModelRoute, { body }),
    onSettled: refresh,
  });
}
