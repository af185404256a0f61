// A stage's prices: the pricing tiers it seeds at deploy time, from its configuration, and the margin check that
// refuses at synth a stage selling any operation below what its configured provider charges the operator.
//
// Context keys (cdk.json, or -c on the command line):
//   pricing          credits per tier id, overriding the defaults (PRICING_TIER_SEED: the twin's prices, 1 credit per
//                    image, edit, batch photo and video output; upscale 1/2/3). An object of tier id → credits for
//                    the stage being synthesized, or of stage name → that object (cdk.json: each stage its own).
//   pricingFile      a JSON file of the same shape (read when `pricing` is not given); relative to the working folder.
//   allowBelowCost   true (or a list of stage names, or an object of stage name → true): the stage may sell below
//                    cost on purpose; synth prints every such tier instead of failing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Node } from 'constructs';
import { PRICING_TIER_SEED, USD_PER_CREDIT, type PricingTierId } from '../lambdas/contracts/catalog.js';
import { operationCosts, type OperationCost, type PriceSelection } from '../lambdas/providers/list-prices.js';

export type TierPrices = Record<PricingTierId, number>;

export interface PricingSettings {
  /** Credits per tier, every tier present. */
  tiers: TierPrices;
  /** Whether this stage may sell below cost (context allowBelowCost). */
  allowBelowCost: boolean;
}

const TIER_IDS: readonly string[] = PRICING_TIER_SEED.map((tier) => tier.id);
const DEFAULT_PRICES = Object.fromEntries(PRICING_TIER_SEED.map((tier) => [tier.id, tier.credits_cost])) as TierPrices;

function forStage(value: unknown, stage: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = value as Record<string, unknown>;
  // An object whose keys are tier ids is the stage's own prices; otherwise it is by stage.
  return Object.keys(entries).some((key) => TIER_IDS.includes(key)) ? entries : entries[stage];
}

function readPrices(value: unknown, source: string): Partial<TierPrices> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${source} must be an object of tier id → credits`);
  for (const [id, credits] of Object.entries(parsed)) {
    if (!TIER_IDS.includes(id)) throw new Error(`${source}: unknown pricing tier '${id}' (tiers: ${TIER_IDS.join(', ')})`);
    if (!Number.isInteger(credits) || (credits as number) < 1) throw new Error(`${source}: tier ${id} must cost a whole number of credits ≥ 1, got ${JSON.stringify(credits)}`);
  }
  return parsed as Partial<TierPrices>;
}

export function readPricing(node: Node, stage: string): PricingSettings {
  const inline = forStage(node.tryGetContext('pricing'), stage);
  const file = forStage(node.tryGetContext('pricingFile'), stage);
  let overrides: Partial<TierPrices> = {};
  if (inline !== undefined && inline !== null && inline !== '') overrides = readPrices(inline, 'Context pricing');
  else if (typeof file === 'string' && file) overrides = readPrices(readFileSync(resolve(file), 'utf8'), `Context pricingFile (${file})`);
  const allow = node.tryGetContext('allowBelowCost');
  const allowBelowCost =
    allow === true || allow === 'true' || (Array.isArray(allow) && allow.includes(stage)) || (typeof allow === 'string' && allow.split(',').map((s) => s.trim()).includes(stage)) ||
    (allow !== null && typeof allow === 'object' && !Array.isArray(allow) && (allow as Record<string, unknown>)[stage] === true);
  return { tiers: { ...DEFAULT_PRICES, ...overrides }, allowBelowCost };
}

export interface TierMargin extends OperationCost {
  credits: number;
  priceUsd: number;
  /** (price − cost) / price. */
  margin: number;
}

/** Every tier's price against its provider's cost. */
export function tierMargins(tiers: TierPrices, selection: PriceSelection): TierMargin[] {
  return operationCosts(selection).map((cost) => {
    const credits = tiers[cost.tier];
    const priceUsd = Math.round(credits * USD_PER_CREDIT * 100) / 100;
    return { ...cost, credits, priceUsd, margin: priceUsd > 0 ? (priceUsd - cost.usd) / priceUsd : -Infinity };
  });
}

const usd = (value: number) => `$${value.toFixed(value < 1 ? 3 : 2)}`;

/**
 * Fails (throws) when the stage sells any tier below its provider's list cost, naming each tier with its price and
 * cost; with allowBelowCost the same lines are printed (`warn`) and synth goes on.
 */
export function checkMargins(stage: string, pricing: PricingSettings, selection: PriceSelection, warn: (line: string) => void = console.warn): TierMargin[] {
  const margins = tierMargins(pricing.tiers, selection);
  const below = margins.filter((tier) => tier.priceUsd < tier.usd);
  if (below.length === 0) return margins;
  const lines = below.map(
    (tier) => `  ${tier.tier}: sells at ${tier.credits} credit${tier.credits === 1 ? '' : 's'} (${usd(tier.priceUsd)}), costs ${usd(tier.usd)} (${tier.basis})`,
  );
  if (pricing.allowBelowCost) {
    warn(`Stage '${stage}' sells below its providers' cost, allowed by context allowBelowCost:\n${lines.join('\n')}`);
    return margins;
  }
  throw new Error(
    `Stage '${stage}' would sell below its providers' cost:\n${lines.join('\n')}\n` +
      'Raise those tiers (context pricing or pricingFile; docs/providers.md: Prices per deployment), choose other providers, or allow it on purpose with -c allowBelowCost=true.',
  );
}
