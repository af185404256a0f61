// bench/cost.ts on the template synthesized offline (no AWS account, no credentials, no bundling): every figure is a
// finite number, the idle stage bills only what bills by the month, and the state transitions come from the ASL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BEDROCK_FASHN_SELECTION, costReport, countTransitions, formatOperationCosts, formatReport, PRICES, type CostReport } from '../../bench/cost.js';
import { ENRICHMENT_TOKENS, ESRGAN_UPSCALE_LAMBDA_USD, omniVideoUsd } from '../../lambdas/providers/list-prices.js';
import { lumaPerSecond } from '../../lambdas/providers/bedrock/model-table.js';
import { productToModelUsd } from '../../lambdas/providers/fashn/model-table.js';
import { GOOGLE_MODELS } from '../../lambdas/providers/google/model-table.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { readAsl } from '../../lib/local/task-samples.js';
import { synthModelLoop, type Synthesized } from './synth.js';

let synth: Synthesized;
let report: CostReport;
beforeAll(() => {
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'AWS_SESSION_TOKEN']) delete process.env[name];
  synth = synthModelLoop({ nag: false });
  report = costReport(synth.json, { secrets: ['modelloop/fashn-api-key'], selection: BEDROCK_FASHN_SELECTION });
});
afterAll(() => synth?.dispose());

describe('bench/cost.ts', () => {
  it('prices an idle stage at what bills by the month: the secret it reads and the operations alarms and dashboard, no per-use service', () => {
    const total = report.idle.reduce((sum, row) => sum + row.monthlyUsd, 0);
    const count = (type: string) => Object.values(synth.json.Resources).filter((resource) => resource.Type === type).length;
    const monitoring = count('AWS::CloudWatch::Alarm') * PRICES.cloudWatch.alarmMonth + count('AWS::CloudWatch::Dashboard') * PRICES.cloudWatch.dashboardMonth;
    expect(count('AWS::CloudWatch::Alarm')).toBeGreaterThan(0);
    // Two secrets: the FASHN key it reads, and the API keys' pepper the template creates.
    expect(total).toBeCloseTo(2 * PRICES.secretsManager.secretMonth + monitoring, 1);
    expect(report.resources['AWS::Lambda::Function']).toBeGreaterThan(20);
  });

  it('gives every row of the per-1,000 table a finite cost in each column, the AI provider first', () => {
    expect(report.perThousand.map((row) => row.what)).toEqual(
      expect.arrayContaining(['on-model images (FASHN)', 'edits (Bedrock Stability)', 'videos, 8 s × 1 output (Luma Ray2 540p)', 'batch photos (FASHN, one Map iteration each)']),
    );
    for (const row of report.perThousand) {
      for (const value of Object.values(row.costs)) expect(Number.isFinite(value) && value >= 0).toBe(true);
      expect(row.total).toBeCloseTo(Object.values(row.costs).reduce((sum, value) => sum + value, 0), 6);
    }
    const byName = Object.fromEntries(report.perThousand.map((row) => [row.what, row]));
    // FASHN at its largest order (4k, balanced): 4 credits an image.
    expect(byName['on-model images (FASHN)']!.costs.ai).toBeCloseTo(1000 * productToModelUsd('4k', false), 6);
    // Luma Ray2 (at 540p, as the adapter asks) bills seconds of video made: three outputs cost three times one; 16 s is two 9 s clips.
    expect(byName['videos, 5 s × 3 outputs (Luma Ray2 540p)']!.costs.ai).toBeCloseTo(3 * byName['videos, 5 s × 1 output (Luma Ray2 540p)']!.costs.ai, 6);
    expect(byName['videos, 16 s × 1 output (Luma Ray2 540p)']!.costs.ai).toBeCloseTo(1000 * 18 * lumaPerSecond('540p'), 6);
    expect(formatReport(report)).toContain('| per 1,000 | AI provider | Lambda | Step Functions | DynamoDB | S3 | CloudFront | API Gateway | total |');
  });

  it('prices the default set (cdk.json: Google, ESRGAN upscale) per 1,000 at list prices', () => {
    const google = costReport(synth.json, { selection: { providers: synth.stack.config.providers, google: synth.stack.config.googleAi } });
    const byName = Object.fromEntries(google.perThousand.map((row) => [row.what, row]));
    const text = GOOGLE_MODELS[GOOGLE_DEFAULTS.textModel].prices;
    const enrichment = (ENRICHMENT_TOKENS.input * text.perMillionInput + ENRICHMENT_TOKENS.output * text.perMillionOutput) / 1e6;
    // operationCosts rounds each operation to $0.0001 (list-prices.ts round4), so per 1,000 within 5 cents.
    expect(byName['on-model images (Gemini image)']!.costs.ai).toBeCloseTo(1000 * (GOOGLE_MODELS['gemini-3.1-flash-image'].prices.perImage['1K'] + ESRGAN_UPSCALE_LAMBDA_USD + enrichment), 1);
    expect(byName['upscales (ESRGAN in Lambda)']!.costs.ai).toBeCloseTo(1000 * ESRGAN_UPSCALE_LAMBDA_USD, 6);
    // Omni bills the seconds delivered: 5 s is one 5 s clip, 16 s two 8 s clips (each with its inputs).
    const perSecond = GOOGLE_MODELS['gemini-omni-1.1-flash'].prices.perSecond['720p'];
    const inputs = GOOGLE_MODELS['gemini-omni-1.1-flash'].prices.perClipInputs;
    expect(byName['videos, 5 s × 1 output (Gemini Omni)']!.costs.ai).toBeCloseTo(1000 * (5 * perSecond + inputs), 1);
    expect(byName['videos, 16 s × 3 outputs (Gemini Omni)']!.costs.ai).toBeCloseTo(3000 * (16 * perSecond + 2 * inputs), 0);
    expect(omniVideoUsd(GOOGLE_DEFAULTS.videoModel, '720p', 16)).toMatchObject({ seconds: 16, clips: 2 });
  });

  it('shows every tier of each shipped provider set at or above its list cost', () => {
    const text = formatOperationCosts((file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
    expect(text).toContain('google, the default');
    expect(text.match(/every tier at or above its list cost: yes/g)).toHaveLength(3);
    expect(text).not.toContain('NO (');
  });

  it('counts state transitions by walking the ASL', () => {
    expect(report.transitions['image, edit or upscale']).toBe(3); // Route (a Choice), Process or Upscale, Done
    // RenderOutputs, then per check CheckClip + ClipReady (a Wait between checks), StartClip and FinalizeOutput per
    // output, and CompleteJob, JobOutcome, JobComplete.
    const checks = 9;
    expect(report.transitions['video 5 s × 1']).toBe(1 + (1 + checks * 2 + (checks - 1) + 1) + 3);
    const generation = readAsl('generation') as unknown as Parameters<typeof countTransitions>[0];
    expect(countTransitions(generation, () => 'Upscale')).toBe(3);
  });
});
