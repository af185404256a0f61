// A platform team's first deploy: the committed cdk.json synthesizes offline in the regions teams deploy to (and
// environment-agnostic), with the one-key Google set and the studio's own upscale, and the template fits a new AWS
// account. Lambda quotas (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html): "New AWS accounts
// have reduced concurrency and memory quotas. AWS raises these quotas automatically based on your usage." On such an
// account a function may have at most 3,008 MB (context lambdaMemoryMax), and the account runs 10 executions at once
// per region, all of them unreserved: a reservation is refused with "Specified ReservedConcurrentExecutions for
// function decreases account's UnreservedConcurrentExecution below its minimum value of [10]" (reported on new
// accounts: awslabs/fhir-works-on-aws-deployment#691, architect/arc.codes#674). So no function may reserve
// concurrency, and the workflows' Map states together stay within 10.
import { readFileSync } from 'node:fs';
import { Token } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { readAsl } from '../../lib/local/task-samples.js';
import { BATCH_CONCURRENCY, BATCH_CONCURRENCY_ENV, NEW_ACCOUNT_LAMBDA_CONCURRENCY, WORKFLOWS, type WorkflowName } from '../../lambdas/workflows.js';
import { resourcesOfType, synthModelLoop, type CfnTemplate, type Synthesized } from './synth.js';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
const NEW_ACCOUNT_MEMORY_MB = 3008;
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2', undefined] as const;

const synthesized: Synthesized[] = [];
afterAll(() => synthesized.forEach((s) => s.dispose()));

function synthIn(region: string | undefined, options: Parameters<typeof synthModelLoop>[0] = {}): Synthesized {
  const previous = process.env.CDK_DEFAULT_REGION;
  if (region) process.env.CDK_DEFAULT_REGION = region;
  else delete process.env.CDK_DEFAULT_REGION;
  try {
    const result = synthModelLoop({ nag: false, ...options });
    synthesized.push(result);
    return result;
  } finally {
    if (previous === undefined) delete process.env.CDK_DEFAULT_REGION;
    else process.env.CDK_DEFAULT_REGION = previous;
  }
}

/** Functions whose MemorySize is above `max` MB, as 'logical id: MB'. */
function functionsAbove(json: CfnTemplate, max: number): string[] {
  return resourcesOfType(json, 'AWS::Lambda::Function')
    .filter(([, fn]) => Number(fn.Properties?.MemorySize ?? 128) > max)
    .map(([id, fn]) => `${id}: ${fn.Properties?.MemorySize}`);
}

/** Every Map state of a workflow's ASL with its MaxConcurrency (a path's value read from where the stack sets it). */
function mapConcurrency(workflow: WorkflowName): number[] {
  const found: number[] = [];
  const walk = (states: Record<string, { Type: string; MaxConcurrency?: number; MaxConcurrencyPath?: string; ItemProcessor?: { States: Record<string, never> } }>) => {
    for (const state of Object.values(states)) {
      if (state.Type !== 'Map') continue;
      // 0 means no limit at all; a path is the batch route's setting.
      found.push(state.MaxConcurrencyPath ? BATCH_CONCURRENCY.cloud : state.MaxConcurrency ?? 0);
      if (state.ItemProcessor) walk(state.ItemProcessor.States);
    }
  };
  walk(readAsl(workflow).States as never);
  return found;
}

describe('the committed cdk.json', () => {
  it('selects the one-key Google set, the studio’s own upscale and prices that sell at a profit', () => {
    expect(cdkJson.context).toMatchObject({
      imageProvider: 'google',
      editProvider: 'google',
      upscaleProvider: 'local',
      videoProvider: 'google',
      pricingFile: 'lib/pricing/google.json',
      lambdaMemoryMax: NEW_ACCOUNT_MEMORY_MB,
    });
    expect(cdkJson.context).not.toHaveProperty('fashnApiUrl');
    expect(cdkJson.context).not.toHaveProperty('bedrockRegion');
  });

  it.each(REGIONS)('synthesizes offline in %s (undefined: environment-agnostic), with no function above 3,008 MB', (region) => {
    const s = synthIn(region);
    if (region) expect(s.stack.region).toBe(region);
    else expect(Token.isUnresolved(s.stack.region)).toBe(true);
    expect(functionsAbove(s.json, NEW_ACCOUNT_MEMORY_MB)).toEqual([]);
    // A new account's 10 concurrent executions must all stay unreserved.
    const reserving = resourcesOfType(s.json, 'AWS::Lambda::Function').filter(([, fn]) => fn.Properties?.ReservedConcurrentExecutions !== undefined);
    expect(reserving.map(([id]) => id)).toEqual([]);
    // No region rule (such as Luma Ray2's): the default set runs in every region. CDK's own bootstrap check stays.
    expect(Object.keys((s.json as { Rules?: Record<string, unknown> }).Rules ?? {})).toEqual(['CheckBootstrapVersion']);
    const upscale = resourcesOfType(s.json, 'AWS::Lambda::Function').find(([, fn]) => fn.Properties?.Environment?.Variables?.PROVIDER_UPSCALE && fn.Properties?.Timeout === 900);
    expect(upscale?.[1].Properties).toMatchObject({ MemorySize: NEW_ACCOUNT_MEMORY_MB, Environment: { Variables: { PROVIDER_IMAGE: 'google', PROVIDER_UPSCALE: 'local', PROVIDER_VIDEO: 'google', GOOGLE_IMAGE_MODEL: 'gemini-3.1-flash-image' } } });
  }, 300_000);

});

describe('a new account’s Lambda memory quota (lambdaMemoryMax)', () => {
  it('the check finds a function above the quota', () => {
    const template = structuredClone(synthesized[0]!.json);
    const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function')[0]!;
    fn.Properties!.MemorySize = 10_240;
    expect(functionsAbove(template, NEW_ACCOUNT_MEMORY_MB)).toHaveLength(1);
  });

  it('refuses at synth a function above lambdaMemoryMax, naming the function and the fix', () => {
    expect(() => synthModelLoop({ nag: false, context: { lambdaMemoryMax: 2048 } })).toThrow(
      /Function \w+ asks for 3008 MB, above context lambdaMemoryMax \(2048 MB[\s\S]*raise lambdaMemoryMax once the account's Lambda memory quota allows it/,
    );
    expect(() => synthModelLoop({ nag: false, context: { lambdaMemoryMax: 'lots' } })).toThrow(/Context lambdaMemoryMax must be a whole number of MB/);
  }, 300_000);
});

describe('a new account’s Lambda concurrency (10 per region, all unreserved)', () => {
  it('every Map state is bounded, and the workflows’ Maps together stay within the account’s 10', () => {
    const maps = (Object.keys(WORKFLOWS) as WorkflowName[]).flatMap((workflow) => mapConcurrency(workflow).map((limit) => ({ workflow, limit })));
    expect(maps.length).toBeGreaterThanOrEqual(2);
    for (const map of maps) expect(map.limit, map.workflow).toBeGreaterThan(0);
    expect(maps.reduce((total, map) => total + map.limit, 0)).toBeLessThanOrEqual(NEW_ACCOUNT_LAMBDA_CONCURRENCY);
    // The batch route passes the cloud's setting to the Map (MaxConcurrencyPath).
    const s = synthModelLoop({ nag: false });
    const batchRoute = resourcesOfType(s.json, 'AWS::Lambda::Function').find(([, fn]) => fn.Properties?.Environment?.Variables?.[BATCH_CONCURRENCY_ENV] !== undefined);
    expect(batchRoute?.[1].Properties?.Environment.Variables[BATCH_CONCURRENCY_ENV]).toBe(String(BATCH_CONCURRENCY.cloud));
  });
});
