import { listPricingTiersRoute } from '@contracts/api';
import { FACE_REFERENCE_TIER, type PricingTierId } from '@contracts/catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callRoute } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useSavedModels } from '@/lib/saved-models';

/** Active pricing tiers, ordered by feature type, then sort order: the table the server charges from. */
export const pricingTiersQueryOptions = () =>
  queryOptions({
    queryKey: ['pricing-tiers'] as const,
    queryFn: async () => {
      const { items } = await callRoute(listPricingTiersRoute);
      return items
        .filter((tier) => tier.is_active)
        .sort((a, b) => a.feature_type.localeCompare(b.feature_type) || a.sort_order - b.sort_order);
    },
    staleTime: 5 * 60_000,
  });

export function usePricingTiers() {
  const query = useQuery(pricingTiersQueryOptions());
  useLoadErrorToast(query.error, 'Error', 'Failed to load pricing');
  return query;
}

/**
 * What a tier costs, from the server's pricing table (what it charges); undefined while the table is read, so a
 * screen shows "…" rather than a figure that could differ from the charge.
 */
export function useTierCost(): (id: PricingTierId) => number | undefined {
  const tiers = usePricingTiers().data;
  return useCallback((id: PricingTierId) => tiers?.find((tier) => tier.id === id)?.credits_cost, [tiers]);
}

/**
 * What one on-model photo costs with the chosen saved model, as the server charges it: the face-reference tier when
 * the model has a reference portrait and this deployment sells that tier (it is active only where the on-model
 * provider charges more for a portrait), else the route's own tier. Undefined while either list is read.
 */
export function useOnModelPhotoCost(routeTier: PricingTierId, modelId: string | undefined): number | undefined {
  return useOnModelPhotoCosts(routeTier)(modelId);
}

/** useOnModelPhotoCost for several models at once (a batch whose entries each have their own). */
export function useOnModelPhotoCosts(routeTier: PricingTierId): (modelId: string | undefined) => number | undefined {
  const tiers = usePricingTiers().data;
  const models = useSavedModels().data;
  return useCallback(
    (modelId: string | undefined) => {
      if (!tiers || (modelId !== undefined && !models)) return undefined;
      const cost = (id: PricingTierId) => tiers.find((tier) => tier.id === id)?.credits_cost;
      const withPortrait = modelId !== undefined && Boolean(models?.find((model) => model.id === modelId)?.portrait_url);
      return (withPortrait ? cost(FACE_REFERENCE_TIER) : undefined) ?? cost(routeTier);
    },
    [tiers, models, routeTier],
  );
}
