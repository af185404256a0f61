import { ListResponse, PricingTier } from '@contracts/api';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';

/** Active pricing tiers, ordered by feature type, then sort order. */
export function usePricingTiers() {
  const query = useQuery({
    queryKey: ['pricing-tiers'],
    queryFn: async () => {
      const { items } = await apiRequest(ListResponse(PricingTier), '/pricing-tiers', { anonymous: true });
      return items
        .filter((tier) => tier.is_active)
        .sort((a, b) => a.feature_type.localeCompare(b.feature_type) || a.sort_order - b.sort_order);
    },
    staleTime: 5 * 60_000,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load pricing');
  return query;
}
