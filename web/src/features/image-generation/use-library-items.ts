import { ClothingItem, ListResponse } from '@contracts/api';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

/** The caller's clothing items that are not deleted (a deleted item is kept for the history but can't be picked again). */
export function useLibraryItems() {
  const user = useUser();
  // The key starts with 'clothing-items', so realtime notices and the library's own changes refresh it too.
  const query = useQuery({
    queryKey: ['clothing-items', user.userId, 'active-for-generation'],
    queryFn: async () => (await apiRequest(ListResponse(ClothingItem), '/clothing-items?active=true')).items,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load clothing items');
  return query;
}
