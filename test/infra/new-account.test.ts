// A platform team's first deploy: the committed cdk.json synthesizes offline in the regions teams deploy to (and
// environment-agnostic), with the one-key Google set and the studio's own upscale, and the template fits a new AWS
// account. Lambda quotas (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html): "New AWS accounts
// have reduced concurrency and memory quotas. AWS raises these quotas automatically based on your usage." On such an
// account a function may have at most 3,008 MB (context lambdaMemoryMax), and the account runs 10 executions at once
// per region, all of them unreserved: a reservation is refused with "Specified ReservedConcurrentExecutions for
// function decreases account's UnreservedConcurrentExecution below its minimum value of [10]" (reported on new
// accounts: awslabs/fhir-works-on-aws-deployment#691, architect/arc.codes#674). So no function may reserve
// concurrency, and the stage's concurrency budget (the workflows' Maps, the table streams' consumers and the API's
// share, lib/concurrency.ts) stays within 10: synth refuses it above context accountConcurrency.
import { readFileSync } from 'node:fs';
import { App, Stack, Token } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { MAP_CONCURRENCY_ENV, PUBLISH_CONCURRENCY } from '../../lambdas/workflows.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { checkConcurrency, concurrencyLines, NEW_ACCOUNT_BUDGET, NEW_ACCOUNT_CONCURRENCY, type ConcurrencyLine } from '../../lib/concurrency.js';
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

describe('a new account’s Lambda concurrency: the stage’s budget (lib/concurrency.ts)', () => {
  const total = (lines: ConcurrencyLine[]) => lines.reduce((sum, line) => sum + line.executions, 0);

  it('fits the committed stage in a new account’s 10: one consumer per table stream, the API’s share and one batch and one video', () => {
    const s = synthModelLoop({ nag: false });
    const lines = concurrencyLines(s.stack, NEW_ACCOUNT_BUDGET);
    expect(total(lines)).toBeLessThanOrEqual(NEW_ACCOUNT_CONCURRENCY);
    // Every stream mapping of the template is a line: one per streamed table, each at ParallelizationFactor 1.
    const mappings = resourcesOfType(s.json, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(STREAMED_TABLES.length);
    for (const [, mapping] of mappings) expect(mapping.Properties?.ParallelizationFactor).toBe(NEW_ACCOUNT_BUDGET.streamParallelization);
    expect(lines.filter((line) => line.what.startsWith('stream consumer'))).toHaveLength(mappings.length);
    // Every Map is bounded; the batch and video routes pass their budget lines to the Maps (MaxConcurrencyPath).
    expect(lines.filter((line) => line.what.includes(' Map '))).toEqual([
      { what: 'video workflow, Map RenderOutputs (videoOutputs)', executions: NEW_ACCOUNT_BUDGET.videoOutputs },
      { what: 'batch workflow, Map Photos (batchPhotos)', executions: NEW_ACCOUNT_BUDGET.batchPhotos },
      // Shopify publishing: one file at a time, a literal MaxConcurrency.
      { what: 'publish workflow, Map Files', executions: PUBLISH_CONCURRENCY },
    ]);
    const settings = resourcesOfType(s.json, 'AWS::Lambda::Function').flatMap(([, fn]) => {
      const variables = (fn.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      return Object.values(MAP_CONCURRENCY_ENV).filter((name) => name in variables).map((name) => [name, variables[name]]);
    });
    expect(Object.fromEntries(settings)).toEqual({
      [MAP_CONCURRENCY_ENV.batch]: String(NEW_ACCOUNT_BUDGET.batchPhotos),
      [MAP_CONCURRENCY_ENV.video]: String(NEW_ACCOUNT_BUDGET.videoOutputs),
    });
  });

  it('refuses a new-account stage whose budget adds up to 11, naming each line and the fix; allows it once accountConcurrency says 11', () => {
    const eleven = { concurrencyBudget: { api: NEW_ACCOUNT_BUDGET.api + 1 } };
    expect(() => synthModelLoop({ nag: false, context: eleven })).toThrow(
      /needs 11 Lambda executions at once, above context accountConcurrency \(10\):[\s\S]*API routes[\s\S]*stream consumer[\s\S]*raise accountConcurrency once AWS has raised/,
    );
    expect(() => synthModelLoop({ nag: false, context: { concurrencyBudget: { streamParallelization: 2 } } })).toThrow(new RegExp(`needs ${NEW_ACCOUNT_CONCURRENCY + STREAMED_TABLES.length} Lambda executions`));
    const raised = synthModelLoop({ nag: false, context: { ...eleven, accountConcurrency: 11 } });
    expect(total(concurrencyLines(raised.stack, raised.stack.config.concurrency.budget))).toBe(11);
    expect(() => synthModelLoop({ nag: false, context: { concurrencyBudget: { batch: 3 } } })).toThrow(/unknown line 'batch'/);
    expect(() => synthModelLoop({ nag: false, context: { accountConcurrency: 5 } })).toThrow(/accountConcurrency must be a whole number of at least 10/);
  }, 300_000);

  it('counts a function’s reserved concurrency, and refuses one that leaves Lambda fewer than 10 unreserved', () => {
    const stack = new Stack(new App(), 'Reserving');
    new CfnFunction(stack, 'Scheduled', { code: { zipFile: 'x' }, role: 'arn:aws:iam::123456789012:role/r', reservedConcurrentExecutions: 1 });
    const lean = { ...NEW_ACCOUNT_BUDGET, api: 0 };
    expect(concurrencyLines(stack, lean)).toContainEqual({ what: 'reserved by Reserving/Scheduled', executions: 1 });
    expect(() => checkConcurrency(stack, NEW_ACCOUNT_CONCURRENCY, lean)).toThrow(/Functions reserve 1 executions, but Lambda keeps 10 of the account's 10 unreserved/);
    expect(total(checkConcurrency(stack, 1000, lean))).toBe(total(concurrencyLines(stack, lean)));
  });
});
