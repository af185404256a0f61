// The Models screen's server state: a portrait upload (presigned PUT with progress, then the model is saved with it
// and the rights confirmation), renames and deletes; each refreshes the one models list (web/src/lib/saved-models.ts).
import { createModelRoute, createModelUploadUrlRoute, deleteModelRoute, updateModelRoute } from '@contracts/models';
import { SavedModel, type CreateModelRequest, type UpdateModelRequest } from '@contracts/models';
import { imageFileProblemTitle } from '@contracts/upload-rules';
import { useMutation } from '@tanstack/react-query';
import { ApiError, callRoute } from '@/lib/api';
import { useRefreshSavedModels } from '@/lib/saved-models';
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

export function useSaveModel() {
  const refresh = useRefreshSavedModels();
  return useMutation({ mutationFn: saveModel, onSettled: refresh });
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
export function saveFailure(error: unknown): { title: string; description: string } {
  if (error instanceof ApiError) return { title: imageFileProblemTitle(error.code) ?? 'Error', description: error.message };
  return { title: 'Error', description: error instanceof Error ? error.message : 'The model could not be saved.' };
}
