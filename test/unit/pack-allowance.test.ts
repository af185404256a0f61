// The landing and billing pack lines ("About N images or M videos") come from the deployment's tiers, so they are true
// on every deployment: at the twin's prices (1 credit a video) and at a cloud stage's (lib/pricing/*.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRICING_TIER_SEED, packAllowance } from '../../lambdas/contracts/catalog.js';

const stage = (file: string) =>
  Object.entries({ ...Object.fromEntries(PRICING_TIER_SEED.map((tier) => [tier.id, tier.credits_cost])), ...JSON.parse(readFileSync(new URL(`../../lib/pricing/${file}`, import.meta.url), 'utf8')) }).map(
    ([id, credits_cost]) => ({ id, credits_cost: credits_cost as number }),
  );

describe('packAllowance', () => {
  it('states what a pack buys at the twin’s prices', () => {
    expect(packAllowance(50, PRICING_TIER_SEED)).toBe('About 50 images or 50 videos');
  });

  it('states what a pack buys at a cloud stage’s prices: videos from the dearest length to the cheapest', () => {
    expect(packAllowance(50, stage('google.json'))).toBe('About 50 images or 2-5 videos');
    expect(packAllowance(1000, stage('google.json'))).toBe('About 1000 images or 50-111 videos');
    expect(packAllowance(200, stage('google-pro.json'))).toBe('About 66 images or 10-22 videos');
  });

  it('says nothing while the tiers are unknown', () => {
    expect(packAllowance(50, undefined)).toBeUndefined();
  });
});
