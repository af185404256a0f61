// Pricing tiers: the costs the server charges, seeded from the deployment's tiers (PRICING_TIER_SEED on the twin, lib/pricing.ts in the cloud).
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PricingTier } from '../contracts/api.js';
import { FACE_REFERENCE_TIER, faceReferenceTierApplies, PRICING_TIER_SEED, type PricingTierId } from '../contracts/catalog.js';
import { dynamo, scanAll } from './dynamo.js';
import { tableName } from './tables.js';
import { isConditionFailed } from './dynamo-errors.js';

export const SEED_TIERS: PricingTier[] = PRICING_TIER_SEED.map((tier) => ({ ...tier, is_active: true }));

/** Active tiers ordered by feature_type, then sort_order. The table holds a handful of items. */
export async function listActiveTiers(): Promise<PricingTier[]> {
  const tiers = await scanAll<PricingTier>({ TableName: tableName('pricingTiers') });
  return tiers
    .filter((tier) => tier.is_active)
    .sort((a, b) => a.feature_type.localeCompare(b.feature_type) || a.sort_order - b.sort_order);
}

/** The cost of an active tier; an inactive or missing tier is a configuration error, not a free generation. */
export async function tierCost(id: PricingTierId): Promise<number> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName('pricingTiers'), Key: { id } }));
  const tier = Item as PricingTier | undefined;
  if (!tier?.is_active) throw new Error(`Pricing tier ${id} is missing or inactive`);
  return tier.credits_cost;
}

/**
 * Writes the tiers that are missing; tiers an operator changed are left as they are. The face-reference tier is then
 * switched on or off for the on-model provider the twin runs now (it may change between runs on the same data).
 */
export async function seedPricingTiers(imageProvider: string): Promise<void> {
  await Promise.all(
    SEED_TIERS.map((tier) =>
      dynamo
        .send(
          new PutCommand({
            TableName: tableName('pricingTiers'),
            Item: tier,
            ConditionExpression: 'attribute_not_exists(id)',
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailed(error)) throw error;
        }),
    ),
  );
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName('pricingTiers'),
      Key: { id: FACE_REFERENCE_TIER },
      UpdateExpression: 'SET is_active = :active',
      ExpressionAttributeValues: { ':active': faceReferenceTierApplies(imageProvider) },
    }),
  );
}
