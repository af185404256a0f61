// The caller's clothing library as one cached list: the Clothing screen, the generation screens' pickers and the
// batch screen read the same query, and every change (the library's own, a generation's use, a realtime notice)
// refreshes it by its one key.
import { listClothingItemsRoute, makeClothingThumbnailsRoute } from '@contracts/clothing';
import { type ClothingItem, type LiveResource } from '@contracts/api';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callRoute } from './api';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';
import { urlRefreshMs } from './signed-urls';

/** Every clothing query starts with this key, the realtime resource name, so a 'changed' notice refreshes it. */
export const CLOTHING_QUERY_ROOT = 'clothing-items' satisfies LiveResource;

/** The caller's clothing items that are not deleted, newest first (a deleted item stays in the history only). */
export const clothingItemsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [CLOTHING_QUERY_ROOT, userId, 'active'] as const,
    queryFn: async () => (await callRoute(listClothingItemsRoute, { query: { active: 'true' } })).items,
    // Read again well before the items' signed image URLs expire.
    refetchInterval: (query) => urlRefreshMs((query.state.data ?? []).map((item) => item.url_expires_at)),
  });

/** The picture a tile shows: the item's thumbnail, or its original until an item stored before thumbnails has one. */
export const tilePictureOf = (item: Pick<ClothingItem, 'thumbnail_signed_url' | 'signed_url'>) => item.thumbnail_signed_url ?? item.signed_url;

/** The backfill under way for a user, if any: one at a time, however many screens list the library. */
const backfills = new Map<string, Promise<void>>();

/**
 * Items stored before thumbnails existed get theirs from POST /clothing-items/thumbnails (a write; the list stays a
 * plain read), a call at a time until none is left or a call makes none; the list is read again after.
 */
function makeMissingThumbnails(userId: string, queryClient: QueryClient): void {
  if (backfills.has(userId)) return;
  const run = async () => {
    for (;;) {
      const { made, remaining } = await callRoute(makeClothingThumbnailsRoute);
      if (made > 0) await queryClient.invalidateQueries({ queryKey: [CLOTHING_QUERY_ROOT, userId] });
      if (remaining === 0 || made === 0) return;
    }
  };
  // A failed backfill only leaves the originals on the tiles; a later list read tries again.
  backfills.set(userId, run().catch(() => undefined).finally(() => backfills.delete(userId)));
}

export function useClothingItems() {
  const user = useUser();
  const queryClient = useQueryClient();
  const query = useQuery(clothingItemsQueryOptions(user.userId));
  useLoadErrorToast(query.error, 'Error', 'Failed to load clothing items');
  const withoutThumbnail = query.data?.some((item) => item.thumbnail_signed_url === null) ?? false;
  useEffect(() => {
    if (withoutThumbnail) makeMissingThumbnails(user.userId, queryClient);
  }, [withoutThumbnail, user.userId, queryClient]);
  return query;
}
