import { useEffect, useState } from 'react';

export interface TierCost {
  id: string;
  credits_cost: number;
}

let tiersPromise: Promise<TierCost[]> | undefined;

/**
 * The deployment's active pricing tiers for pages without the API client (the landing page keeps Amplify and zod off
 * its critical path): GET /api/pricing-tiers, public, same origin on both hosts. Fetched once per page.
 */
function fetchTiers(): Promise<TierCost[]> {
  tiersPromise ??= fetch('/api/pricing-tiers')
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /pricing-tiers answered ${response.status}`);
      const body = (await response.json()) as { items?: Array<{ id?: unknown; credits_cost?: unknown; is_active?: unknown }> };
      return (body.items ?? []).flatMap((tier) =>
        typeof tier.id === 'string' && typeof tier.credits_cost === 'number' && tier.is_active !== false ? [{ id: tier.id, credits_cost: tier.credits_cost }] : [],
      );
    })
    .catch((error: unknown) => {
      tiersPromise = undefined;
      throw error;
    });
  return tiersPromise;
}

/** The tiers once loaded (undefined before, and when they can't be read: the page then leaves the figures out). */
export function usePublicPricingTiers(): TierCost[] | undefined {
  const [tiers, setTiers] = useState<TierCost[] | undefined>(undefined);
  useEffect(() => {
    let active = true;
    fetchTiers().then(
      (loaded) => active && setTiers(loaded),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);
  return tiers;
}
