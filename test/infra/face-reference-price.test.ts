// The face-reference tier (an on-model photo with a saved model's portrait) at synth: a prod stage whose on-model
// provider is FASHN can never sell it below FASHN's face_reference price (3 credits of FASHN's more per image, at the
// largest order's resolution and generation_mode: fashn/model-table.ts), the shipped FASHN price file sells it above,
// and the stage seeds it active only where the provider charges more for a portrait.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { FACE_REFERENCE_TIER, USD_PER_CREDIT } from '../../lambdas/contracts/catalog.js';
import { operationCosts } from '../../lambdas/providers/list-prices.js';
import { FASHN_CREDIT_USD, productToModelUsd } from '../../lambdas/providers/fashn/model-table.js';
import { readConfig } from '../../lib/config.js';
import { PricingTierSeed } from '../../lib/constructs/pricing-tier-seed.js';

const FASHN_STAGE = {
  stage: 'prod',
  imageProvider: 'fashn',
  fashnApiUrl: 'https://api.fashn.ai',
  fashnApiKeySecretName: 'modelloop/fashn-api-key',
  pricingFile: 'lib/pricing/bedrock-fashn.json',
};
const configOf = (context: Record<string, unknown>) => readConfig(new App({ context }).node);
/** The shipped FASHN price file: context pricing replaces it whole, so a test that changes one tier starts from it. */
const SHIPPED = JSON.parse(readFileSync(new URL('../../lib/pricing/bedrock-fashn.json', import.meta.url), 'utf8')) as Record<string, number>;

describe('the face-reference tier', () => {
  it("costs FASHN's face_reference price on a FASHN stage: three credits more than its plain photo", () => {
    const cost = (image: string) => operationCosts({ providers: { image, edit: 'bedrock', upscale: 'bedrock', video: 'bedrock' } });
    const fashn = cost('fashn');
    expect(fashn.find((row) => row.tier === FACE_REFERENCE_TIER)?.usd).toBeCloseTo(productToModelUsd('4k', true), 6);
    expect(productToModelUsd('4k', true) - productToModelUsd('4k', false)).toBeCloseTo(3 * FASHN_CREDIT_USD, 6);
    // The preview engine does not charge for a portrait: the tier is not sold there.
    expect(cost('local').find((row) => row.tier === FACE_REFERENCE_TIER)?.usd).toBe(0);
  });

  it('refuses a prod FASHN stage that sells it below cost, naming the tier, its price and the cost', () => {
    // 5 credits ($0.50) against FASHN's $0.525 at 4k balanced; the plain photo at its shipped price stays fine.
    expect(() => configOf({ ...FASHN_STAGE, pricing: { ...SHIPPED, [FACE_REFERENCE_TIER]: 5 } })).toThrow(
      /Stage 'prod' would sell below[\s\S]*face-reference-photo: sells at 5 credits \(\$0\.500\), costs \$0\.525 \(fashn:product-to-model 4k balanced with face_reference\)/,
    );
    expect(() => configOf({ ...FASHN_STAGE, pricing: { ...SHIPPED, [FACE_REFERENCE_TIER]: 5 } })).not.toThrow(/image-generation/);
  });

  it('lets the shipped FASHN prices through, with the tier above cost', () => {
    const shipped = JSON.parse(readFileSync(new URL('../../lib/pricing/bedrock-fashn.json', import.meta.url), 'utf8')) as Record<string, number>;
    expect(shipped[FACE_REFERENCE_TIER]! * USD_PER_CREDIT).toBeGreaterThanOrEqual(productToModelUsd('4k', true));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(configOf(FASHN_STAGE).pricing.tiers[FACE_REFERENCE_TIER]).toBe(shipped[FACE_REFERENCE_TIER]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the pricing seed', () => {
  it('seeds the face-reference tier active only where the on-model provider charges more for a portrait', () => {
    const activeOn = (imageProvider: string) => {
      const stack = new Stack(new App());
      const table = new TableV2(stack, 'Tiers', { partitionKey: { name: 'id', type: AttributeType.STRING } });
      new PricingTierSeed(stack, 'Seed', { table, imageProvider });
      const puts = Object.values(Template.fromStack(stack).findResources('Custom::AWS')).map((resource) => JSON.stringify(resource));
      const face = puts.find((put) => put.includes(`\\"S\\":\\"${FACE_REFERENCE_TIER}\\"`));
      const image = puts.find((put) => put.includes('\\"S\\":\\"image-generation\\"'));
      expect(face, 'face tier put').toBeDefined();
      expect(image).toContain('\\"is_active\\":{\\"BOOL\\":true}');
      return face!.includes('\\"is_active\\":{\\"BOOL\\":true}');
    };
    expect(activeOn('fashn')).toBe(true);
    expect(activeOn('google')).toBe(false);
    expect(activeOn('local')).toBe(false);
  });
});
