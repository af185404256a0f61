// The fetch guard's test allowance can never reach the cloud: no function of any stage gets the variable that opens
// loopback ports, whatever the context. The import function is short-lived and outside any VPC, and only the two
// import routes can reach the imports table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_FETCH_TARGETS_ENV } from '../../lambdas/net/safe-fetch.js';
import { resourcesOfType, synthModelLoop, type Synthesized } from './synth.js';

let stages: Synthesized[];

beforeAll(() => {
  stages = [
    synthModelLoop({ nag: false }),
    synthModelLoop({ nag: false, context: { stage: 'prod', webOrigins: 'https://studio.example.com', imageProvider: 'fashn', fashnApiUrl: 'https://api.fashn.ai', fashnApiKeySecretName: 'modelloop/fashn-api-key', videoProvider: 'bedrock', pricingFile: 'lib/pricing/bedrock-fashn.json' } }),
    synthModelLoop({ nag: false, context: { stage: 'staging', webOrigins: 'https://staging.example.com', testPayments: 'true', imageProvider: 'local', videoProvider: 'local' } }),
  ];
});
afterAll(() => stages?.forEach((stage) => stage.dispose()));

const functionsOf = (stage: Synthesized) => resourcesOfType(stage.json, 'AWS::Lambda::Function');
const idOf = (stage: Synthesized, handler: 'create-import' | 'select-import-image') =>
  stage.stack.getLogicalId(stage.stack.httpApi.functions[handler].node.defaultChild as never);

describe('server-side fetches in the cloud', () => {
  it('no function of any stage is given the test allowance of loopback fetch targets', () => {
    for (const stage of stages) {
      const functions = functionsOf(stage);
      expect(functions.length).toBeGreaterThan(30);
      for (const [id, fn] of functions) {
        expect(Object.keys(fn.Properties?.Environment?.Variables ?? {}), id).not.toContain(TEST_FETCH_TARGETS_ENV);
      }
      expect(JSON.stringify(stage.json)).not.toContain(TEST_FETCH_TARGETS_ENV);
    }
  });

  it('imports run outside any VPC with a short timeout', () => {
    const [plain] = stages;
    const importFn = plain!.json.Resources[idOf(plain!, 'create-import')]!;
    expect(importFn.Properties?.VpcConfig).toBeUndefined();
    expect(importFn.Properties?.Timeout).toBeLessThanOrEqual(15);
    const selectFn = plain!.json.Resources[idOf(plain!, 'select-import-image')]!;
    expect(selectFn.Properties?.VpcConfig).toBeUndefined();
    expect(selectFn.Properties?.Timeout).toBeLessThanOrEqual(20);
  });

  it('the imports table and its TTL', () => {
    const [plain] = stages;
    const table = plain!.json.Resources[plain!.stack.getLogicalId(plain!.stack.data.tables.imports.node.defaultChild as never)]!;
    expect(table.Properties?.TimeToLiveSpecification).toEqual({ AttributeName: 'expires_at', Enabled: true });
  });
});
