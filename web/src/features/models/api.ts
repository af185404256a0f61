// The Models screen's server state: a portrait upload (presigned PUT with progress, then the model is saved with it
// and the rights confirmation), renames and deletes; each refreshes the one models list (web/src/lib/saved-models.ts).
import { createModelRoute, createModelUploadUrlRoute, deleteModelRoute, updateModelRoute } from '@contracts/models';
import { SavedModel, type CreateModelRequest, type UpdateModelRequest } from '@contracts/models';
import { imageFileProblemTitle } from '@contracts/upload-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, callRoute } from '@/lib/api';
import { savedModelsQueryOptions, useRefreshSavedModels } from '@/lib/saved-models';
import { useUser } from '@/lib/session-context';
import { putWithProgress } from '@/lib/uploads';

export interface NewModel {
  body: Omit<CreateModelRequest, 'imageKey'>;
  /** An uploaded portrait (the body then carries rightsConfirmed). */
  portrait?: File;
  onProgress?: (fraction: number) => void;
}

/** Uploads the portrait straight to storage (when there is one), then saves the model; the server checks the bytes. */
async function saveModel({ body, portrait, onProgress }: NewModel): Promise<SavedModel> {
  let imageKey: string | undefined;
  if (portrait) {
    const upload = await callRoute(createModelUploadUrlRoute, { body: { fileName: portrait.name, contentType: portrait.type, sizeBytes: portrait.size } });
    await putWithProgress(upload.uploadUrl, upload.headers, portrait, (fraction) => onProgress?.(fraction));
    imageKey = upload.imageKey;
  }
  return callRoute(createModelRoute, { body: { ...body, ...(imageKey ? { imageKey } : {}) } });
}

/**
 * Saves a model; the answer (with its signed portrait URL) goes into the models list at once, so the new card shows
 * its picture without waiting for the list to be read again (which follows, for the order and anything else changed).
 */
export function useSaveModel() {
  const refresh = useRefreshSavedModels();
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: saveModel,
    onSuccess: (model) => {
      queryClient.setQueryData(savedModelsQueryOptions(user.userId).queryKey, (current) => [model, ...(current ?? []).filter((other) => other.id !== model.id)]);
    },
    onSettled: () => void refresh(),
  });
}

export function useUpdateModel() {
  const refresh = useRefreshSavedModels();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateModelRequest }) =>
      callRoute(updateModelRoute, { params: { id }, body: changes }),
    onSettled: refresh,
  });
}

export function useDeleteModel() {
  const refresh = useRefreshSavedModels();
  return useMutation({
    mutationFn: (id: string) => callRoute(deleteModelRoute, { params: { id } }),
    onSettled: refresh,
  });
}

/** The toast of a failed save: the upload rules' title for a refused file, 'Error' otherwise. */
/** A refusal of the uploaded portrait itself (no face, several faces, not an image, too large): it belongs by the portrait field. */
export function isPortraitRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.code.startsWith('PORTRAIT_') || imageFileProblemTitle(error.code) !== undefined);
}

export function saveFailure(error: unknown): { title: string; description: string } {
  if (error instanceof ApiError) return { title: imageFileProblemTitle(error.code) ?? 'Error', description: error.message };
  return { title: 'Error', description: error instanceof Error ? error.message : 'The model could not be saved.' };
}
