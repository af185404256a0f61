// The specification's constants, as the server charges and the screens show them.
import { describe, expect, it } from 'vitest';
import { BILLING_PACKAGES, PRICING_TIER_SEED, priceUsd, UPSCALE_RESOLUTIONS } from '../../lambdas/contracts/catalog.js';
import { bucketEnvName, tableEnvName } from '../../lambdas/data/tables.js';

describe('prices', () => {
  it('charges 0.10 USD a credit, to the cent', () => {
    expect(priceUsd(170)).toBe(17);
    expect(priceUsd(1)).toBe(0.1);
    expect(priceUsd(3)).toBe(0.3);
    expect(priceUsd(10_000)).toBe(1000);
  });

  it('prices every billing package at credits × 0.10', () => {
    for (const pack of BILLING_PACKAGES) expect(priceUsd(pack.credits)).toBe(pack.usd);
    expect(BILLING_PACKAGES.filter((pack) => pack.popular).map((pack) => pack.credits)).toEqual([5000]);
  });

  it('seeds the costs of the specification', () => {
    const cost = Object.fromEntries(PRICING_TIER_SEED.map((tier) => [tier.id, tier.credits_cost]));
    expect(cost).toEqual({
      'image-generation': 1,
      'image-edit': 1,
      'upscale-2k': 1,
      'upscale-4k': 2,
      'upscale-8k': 3,
      'video-5s': 1,
      'video-8s': 1,
      'video-16s': 1,
      'batch-photo': 1,
      // A marketplace packshot (issue #42): the studio's own engine, no provider.
      packshot: 1,
      // An on-model photo with a saved model's portrait, where the provider bills it 4× (FASHN's face_reference).
      'face-reference-photo': 4,
    });
    for (const resolution of Object.values(UPSCALE_RESOLUTIONS)) expect(cost[resolution.tier]).toBeDefined();
  });
});

describe('configuration names', () => {
  it('derives one environment variable per table and bucket', () => {
    expect(tableEnvName('pricingTiers')).toBe('TABLE_PRICING_TIERS');
    expect(tableEnvName('ledger')).toBe('TABLE_LEDGER');
    expect(bucketEnvName('clothingImages')).toBe('BUCKET_CLOTHING_IMAGES');
  });
});
