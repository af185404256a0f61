// The caller's clothing library as one cached list: the Clothing screen, the generation screens' pickers and the
// batch screen read the same query, and every change (the library's own, a generation's use, a realtime notice)
// refreshes it by its one key.
import { listClothingItemsRoute } from '@contracts/clothing';
import { type LiveResource } from '@contracts/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
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

export function useClothingItems() {
  const user = useUser();
  const query = useQuery(clothingItemsQueryOptions(user.userId));
  useLoadErrorToast(query.error, 'Error', 'Failed to load clothing items');
  return query;
}
