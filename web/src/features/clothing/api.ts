// The clothing library's server state: the upload path (presigned PUT with progress, then registration) and the item
// mutations, each refreshing the list (web/src/lib/clothing-items.ts, which other screens read too) when it is done.
import { createClothingUploadUrlRoute, deleteClothingItemRoute, registerClothingItemRoute, updateClothingItemRoute } from '@contracts/clothing';
import { ClothingItem, type RegisterClothingItemRequest, type UpdateClothingItemRequest } from '@contracts/api';
import { imageFileProblemTitle } from '@contracts/upload-rules';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, callRoute } from '@/lib/api';
import { clothingItemsQueryOptions } from '@/lib/clothing-items';
import { useUser } from '@/lib/session-context';
import { putWithProgress } from '@/lib/uploads';

/** Reads the clothing list again (after the caller's own changes). */
export function useRefreshClothing() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: clothingItemsQueryOptions(user.userId).queryKey }),
    [queryClient, user.userId],
  );
}

export type UploadPhase = { step: 'uploading'; fraction: number } | { step: 'checking' };

export interface NewClothingItem {
  file: File;
  name: string;
  description?: string | null;
  productType?: ClothingItem['product_type'];
  onPhase?: (phase: UploadPhase) => void;
}

/** Uploads one file straight to storage, then registers it; the server checks the stored bytes before it agrees. */
export async function uploadClothingItem({ file, name, description, productType, onPhase }: NewClothingItem): Promise<ClothingItem> {
  const upload = await callRoute(createClothingUploadUrlRoute, { body: { fileName: file.name, contentType: file.type, sizeBytes: file.size } });
  onPhase?.({ step: 'uploading', fraction: 0 });
  await putWithProgress(upload.uploadUrl, upload.headers, file, (fraction) => onPhase?.({ step: 'uploading', fraction }));
  onPhase?.({ step: 'checking' });
  const body: RegisterClothingItemRequest = { imageKey: upload.imageKey, name, description, ...(productType && { productType }) };
  return callRoute(registerClothingItemRoute, { body });
}

export function useUploadClothingItem() {
  const refresh = useRefreshClothing();
  return useMutation({ mutationFn: uploadClothingItem, onSettled: refresh });
}

/** Registers an image already stored in the caller's folder (imported from a product link) as an item. */
export function useRegisterImportedItem() {
  const refresh = useRefreshClothing();
  return useMutation({
    mutationFn: (body: RegisterClothingItemRequest) => callRoute(registerClothingItemRoute, { body }),
    onSettled: refresh,
  });
}

export function useUpdateClothingItem() {
  const refresh = useRefreshClothing();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateClothingItemRequest }) =>
      callRoute(updateClothingItemRoute, { params: { id }, body: changes }),
    onSettled: refresh,
  });
}

export function useDeleteClothingItem() {
  const refresh = useRefreshClothing();
  return useMutation({
    mutationFn: (id: string) => callRoute(deleteClothingItemRoute, { params: { id } }),
    onSettled: refresh,
  });
}

/** The toast for a failed upload: the upload rules' title for a refused file, 'Upload failed' otherwise. */
export function uploadFailure(error: unknown): { title: string; description: string } {
  if (error instanceof ApiError) return { title: imageFileProblemTitle(error.code) ?? 'Upload failed', description: error.message };
  return { title: 'Upload failed', description: error instanceof Error ? error.message : 'The upload did not complete.' };
}
