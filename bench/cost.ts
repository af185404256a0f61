// `npx tsx bench/cost.ts`: what a stage costs, computed offline from the synthesized template (the functions' memory
// and architecture, the resources that bill by the month), the ASL files (state transitions along each path) and
// public list prices, which are stated below with their source and are NOT fetched: check them before relying on
// the figures. Durations, request counts and file sizes are assumptions, stated in ASSUMPTIONS. Nothing is measured.
//
// Prints the fixed monthly cost of an idle stage and the marginal cost per 1,000 images, edits, upscales, videos (by
// duration and outputs) and batch photos, split into AI provider, Lambda, Step Functions, DynamoDB, S3, CloudFront
// and API Gateway.
import { pathToFileURL } from 'node:url';
import { PRICING_TIER_SEED, USD_PER_CREDIT } from '../lambdas/contracts/catalog.js';
import { operationCosts, type PriceSelection } from '../lambdas/providers/list-prices.js';
import { planClips as lumaPlanClips } from '../lambdas/providers/bedrock/luma-request.js';
import { BEDROCK_MODELS } from '../lambdas/providers/bedrock/model-table.js';
import { planFashnClips } from '../lambdas/providers/fashn/fashn-video.js';
import { FASHN_CREDIT_SOURCE, FASHN_MODELS } from '../lambdas/providers/fashn/model-table.js';
import { GOOGLE_MODELS } from '../lambdas/providers/google/model-table.js';
import { planOmniClips } from '../lambdas/providers/google/omni-plan.js';
import { ROUTES } from '../lambdas/routes.js';
import { tierMargins, type TierPrices } from '../lib/pricing.js';
import { readAsl } from '../lib/local/task-samples.js';
import type { CfnTemplate } from '../test/infra/synth.js';

/** Public on-demand list prices, us-east-1, USD, as published in November 2026. Stated, not fetched. */
export const PRICES = {
  lambda: { x86GbSecond: 0.0000166667, arm64GbSecond: 0.0000133334, perMillionRequests: 0.2, source: 'aws.amazon.com/lambda/pricing' },
  stepFunctions: { perThousandTransitions: 0.025, source: 'aws.amazon.com/step-functions/pricing (Standard workflows)' },
  dynamodb: { perMillionWrites: 0.625, perMillionReads: 0.125, gbMonth: 0.25, source: 'aws.amazon.com/dynamodb/pricing/on-demand' },
  s3: { perThousandPuts: 0.005, perThousandGets: 0.0004, gbMonth: 0.023, egressGb: 0.09, source: 'aws.amazon.com/s3/pricing (Standard; internet egress first 10 TB)' },
  cloudFront: { egressGb: 0.085, perTenThousandRequests: 0.01, source: 'aws.amazon.com/cloudfront/pricing (North America, pay as you go)' },
  apiGateway: { httpPerMillion: 1.0, webSocketMessagesPerMillion: 1.0, source: 'aws.amazon.com/api-gateway/pricing' },
  secretsManager: { secretMonth: 0.4, source: 'aws.amazon.com/secrets-manager/pricing' },
  cloudWatch: { alarmMonth: 0.1, dashboardMonth: 3.0, source: 'aws.amazon.com/cloudwatch/pricing' },
  kms: { keyMonth: 1.0, source: 'aws.amazon.com/kms/pricing' },
  wafv2: { webAclMonth: 5.0, source: 'aws.amazon.com/waf/pricing' },
  /** The AI providers the cloud adapters call: their dated model tables (model-table.ts of each provider under lambdas/providers). */
  gemini: { source: `${GOOGLE_MODELS['gemini-3.1-flash-image'].priceSource.url} (read ${GOOGLE_MODELS['gemini-3.1-flash-image'].priceSource.read}); Omni: ${GOOGLE_MODELS['gemini-omni-1.1-flash'].priceSource.url} (read ${GOOGLE_MODELS['gemini-omni-1.1-flash'].priceSource.read})` },
  fashn: { source: `${FASHN_MODELS['product-to-model'].priceSource.url} (read ${FASHN_MODELS['product-to-model'].priceSource.read}); credits ${FASHN_CREDIT_SOURCE.url}` },
  bedrock: { source: `${Object.values(BEDROCK_MODELS)[0]!.priceSource!.url} (read ${Object.values(BEDROCK_MODELS)[0]!.priceSource!.read})` },
} as const;

/** What the figures assume about each request; change them here. */
export const ASSUMPTIONS = {
  /** Milliseconds each function runs per call, with the cloud adapters (the provider's wait included where the function waits). */
  durationMs: {
    route: 250,
    spendingRoute: 900,
    'generation-process:on-model': 25_000,
    'generation-process:edit': 9_000,
    'generation-process:upscale': 7_000,
    /** A 2000 px packshot in Lambda: the cutout network (about 0.6 s at 320 px), compositing and JPEG (no provider). */
    'generation-process:packshot': 3_000,
    'video-start-clip': 1_500,
    'video-start-clip:chained': 4_000,
    'video-check-clip': 300,
    'video-finalize-output': 15_000,
    'video-complete-job': 400,
    'ws-fan-out': 200,
  },
  /** HTTP calls the web app makes around one image: upload URL, the spend, two reads of the generation. */
  imageHttpCalls: 4,
  /** Calls around one video job: upload URL, the spend, polls while the socket is down (about 6), get-video-url. */
  videoHttpCalls: 9,
  /** Stream batches the fan-out handles per image / per video (profile, generation, clothing item changes). */
  fanOutCallsPerImage: 3,
  fanOutCallsPerVideo: 4,
  /** DynamoDB request units per image: the debit transaction (2 items, 2 WRU each), the row and its updates. */
  imageWriteUnits: 9,
  imageReadUnits: 8,
  videoWriteUnits: 10,
  videoReadUnits: 12,
  /** Checks of a clip before the provider has it ready (CheckClip waits 10 s between checks), by clip length. */
  checksPerClip: { 5: 9, 6: 10, 8: 13, 9: 15 } as Record<number, number>,
  /** Sizes in MB: the source, a result PNG and its thumbnail, a delivered video and its poster. */
  sourceMb: 2,
  imageMb: { 'on-model': 6, edit: 6, upscale: 14, packshot: 0.4 } as Record<string, number>,
  thumbnailMb: 0.05,
  videoMbPerSecond: 0.6,
  /** Each result is downloaded this many times and kept this many months (storage in the marginal cost). */
  downloadsPerResult: 2,
  storedMonths: 1,
  /** The web app's first load (gzip) and its requests, per 1,000 visits. */
  webLoadMb: 0.45,
  webLoadRequests: 12,
} as const;

type Column = 'ai' | 'lambda' | 'stepFunctions' | 'dynamodb' | 's3' | 'cloudFront' | 'apiGateway';
const COLUMNS: [Column, string][] = [
  ['ai', 'AI provider'],
  ['lambda', 'Lambda'],
  ['stepFunctions', 'Step Functions'],
  ['dynamodb', 'DynamoDB'],
  ['s3', 'S3'],
  ['cloudFront', 'CloudFront'],
  ['apiGateway', 'API Gateway'],
];
type Costs = Record<Column, number>;
const zero = (): Costs => ({ ai: 0, lambda: 0, stepFunctions: 0, dynamodb: 0, s3: 0, cloudFront: 0, apiGateway: 0 });

interface FunctionSize {
  memoryMb: number;
  arm64: boolean;
}

/** Memory and architecture of each handler's function in the template (by its construct id, e.g. GenerateAiImageFunction). */
export function functionSizes(template: CfnTemplate): Map<string, FunctionSize> {
  const lambdas = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
  const handlers = [...ROUTES.map((route) => route.handler), 'generation-process', 'generation-fail', 'video-start-clip', 'video-check-clip', 'video-finalize-output', 'video-complete-job', 'video-mark-failed', 'workflow-ended', 'ws-fan-out'];
  const sizes = new Map<string, FunctionSize>();
  for (const handler of handlers) {
    const id = `${handler.replace(/^ws-/, '').replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Function`;
    const found = lambdas.find(([logicalId]) => logicalId.includes(id));
    if (!found) throw new Error(`No function for handler ${handler} (${id}) in the template`);
    const props = found[1].Properties ?? {};
    sizes.set(handler, { memoryMb: Number(props.MemorySize ?? 128), arm64: (props.Architectures ?? ['x86_64']).includes('arm64') });
  }
  return sizes;
}

interface AslState {
  Type: string;
  Next?: string;
  End?: boolean;
  Default?: string;
  Choices?: { Next: string }[];
  ItemProcessor?: { StartAt: string; States: Record<string, AslState> };
}

/**
 * State transitions of one execution, walking the ASL from StartAt: `choose` picks the next state at each Choice
 * (by state name), and a Map runs its processor once per item. Every state entered is one transition.
 */
export function countTransitions(scope: { StartAt: string; States: Record<string, AslState> }, choose: (state: string, visits: number) => string, items = 1): number {
  let transitions = 0;
  const visits = new Map<string, number>();
  for (let name: string | undefined = scope.StartAt; name; ) {
    const state: AslState | undefined = scope.States[name];
    if (!state) throw new Error(`ASL has no state ${name}`);
    transitions += 1;
    visits.set(name, (visits.get(name) ?? 0) + 1);
    if (state.Type === 'Map' && state.ItemProcessor) transitions += items * countTransitions(state.ItemProcessor, choose);
    if (state.Type === 'Succeed' || state.Type === 'Fail' || state.End) break;
    name = state.Type === 'Choice' ? choose(name, visits.get(name)!) : state.Next;
    if (transitions > 100_000) throw new Error('ASL walk does not end');
  }
  return transitions;
}

/** The video ASL's transitions for one job: clips per output and checks per clip decide the Choice states. */
function videoTransitions(clipsPerOutput: number, checksPerClip: number, outputs: number): number {
  const asl = readAsl('video') as unknown as { StartAt: string; States: Record<string, AslState> };
  let clip = 0;
  let checks = 0;
  return countTransitions(
    asl,
    (state) => {
      if (state === 'ClipReady') {
        checks += 1;
        if (checks < checksPerClip) return 'WaitForClip';
        checks = 0;
        clip += 1;
        if (clip < clipsPerOutput) return 'StartClip';
        clip = 0;
        return 'FinalizeOutput';
      }
      if (state === 'JobOutcome') return asl.States.JobOutcome?.Default ?? 'JobComplete';
      throw new Error(`No choice known for ${state}`);
    },
    outputs,
  );
}

function generationTransitions(): number {
  // Route sends an upscale to Upscale and everything else to Process: either way one task, so the count is the same.
  return countTransitions(readAsl('generation') as unknown as { StartAt: string; States: Record<string, AslState> }, (state) => {
    if (state === 'Route') return 'Process';
    throw new Error(`No choice known for ${state}`);
  });
}

export interface CostReport {
  idle: { item: string; monthlyUsd: number }[];
  perThousand: { what: string; costs: Costs; total: number }[];
  transitions: Record<string, number>;
  resources: Record<string, number>;
}

/** The FASHN + Bedrock set (an option): what the per-1,000 table used before the Google set became the default. */
export const BEDROCK_FASHN_SELECTION: PriceSelection = { providers: { image: 'fashn', edit: 'bedrock', upscale: 'bedrock', video: 'bedrock' } };

const PROVIDER_LABELS: Record<string, Record<string, string>> = {
  image: { google: 'Gemini image', fashn: 'FASHN', local: 'preview engine' },
  edit: { google: 'Gemini image', bedrock: 'Bedrock Stability', local: 'preview engine' },
  upscale: { local: 'ESRGAN in Lambda', bedrock: 'Bedrock Stability Fast Upscale' },
  video: { google: 'Gemini Omni', bedrock: 'Luma Ray2 540p', fashn: 'FASHN 720p', local: 'preview engine' },
};

/** The clips one output is made of, at the length the provider bills. */
function videoClips(selection: PriceSelection, seconds: 5 | 8 | 16): number[] {
  if (selection.providers.video === 'google') return planOmniClips(seconds).map((clip) => clip.seconds);
  if (selection.providers.video === 'bedrock') return lumaPlanClips(seconds).map((clip) => clip.seconds);
  if (selection.providers.video === 'fashn') return planFashnClips(seconds).map((clip) => clip.seconds);
  return [seconds];
}

/**
 * The stage's costs from its template: the idle month, and per 1,000 operations with the selected providers (default
 * the FASHN + Bedrock set; `npx tsx bench/cost.ts` passes the one cdk.json selects).
 */
export function costReport(template: CfnTemplate, context: { secrets?: string[]; selection?: PriceSelection } = {}): CostReport {
  const selection = context.selection ?? BEDROCK_FASHN_SELECTION;
  const aiCost = Object.fromEntries(operationCosts(selection).map((cost) => [cost.tier, cost.usd]));
  const label = (port: keyof PriceSelection['providers']) => PROVIDER_LABELS[port]?.[selection.providers[port]] ?? selection.providers[port];
  const sizes = functionSizes(template);
  const gbSecondCost = (handler: string, ms: number) => {
    const size = sizes.get(handler)!;
    const rate = size.arm64 ? PRICES.lambda.arm64GbSecond : PRICES.lambda.x86GbSecond;
    return (size.memoryMb / 1024) * (ms / 1000) * rate + PRICES.lambda.perMillionRequests / 1e6;
  };
  const A = ASSUMPTIONS;
  const resources: Record<string, number> = {};
  for (const resource of Object.values(template.Resources)) resources[resource.Type] = (resources[resource.Type] ?? 0) + 1;

  // ——— Fixed monthly cost of an idle stage: what bills by the month whether or not anyone uses it ———
  const count = (type: string) => resources[type] ?? 0;
  const idle = [
    { item: `Secrets Manager: ${(context.secrets ?? []).length} secret(s) the stack reads (${(context.secrets ?? []).join(', ') || 'none'}), created by you`, monthlyUsd: (context.secrets ?? []).length * PRICES.secretsManager.secretMonth },
    { item: `Secrets Manager: ${count('AWS::SecretsManager::Secret')} secret(s) in the template`, monthlyUsd: count('AWS::SecretsManager::Secret') * PRICES.secretsManager.secretMonth },
    { item: `CloudWatch: ${count('AWS::CloudWatch::Alarm')} alarm(s), ${count('AWS::CloudWatch::Dashboard')} dashboard(s)`, monthlyUsd: count('AWS::CloudWatch::Alarm') * PRICES.cloudWatch.alarmMonth + count('AWS::CloudWatch::Dashboard') * PRICES.cloudWatch.dashboardMonth },
    { item: `KMS: ${count('AWS::KMS::Key')} customer key(s)`, monthlyUsd: count('AWS::KMS::Key') * PRICES.kms.keyMonth },
    { item: `WAF: ${count('AWS::WAFv2::WebACL')} web ACL(s)`, monthlyUsd: count('AWS::WAFv2::WebACL') * PRICES.wafv2.webAclMonth },
    {
      item: `Pay-per-use only, $0 idle: ${count('AWS::Lambda::Function')} functions, ${count('AWS::DynamoDB::Table')} on-demand tables, ${count('AWS::StepFunctions::StateMachine')} state machines, ${count('AWS::ApiGatewayV2::Api')} APIs, ${count('AWS::S3::Bucket')} buckets, ${count('AWS::CloudFront::Distribution')} distribution, Cognito (free tier)`,
      monthlyUsd: 0,
    },
    { item: 'S3: the web app (about 2 MB stored)', monthlyUsd: (2 / 1024) * PRICES.s3.gbMonth },
  ];

  // ——— Marginal cost per 1,000 ———
  const s3For = (puts: number, gets: number, storedMb: number, egressMb: number) =>
    (puts / 1000) * PRICES.s3.perThousandPuts + (gets / 1000) * PRICES.s3.perThousandGets + (storedMb / 1024) * PRICES.s3.gbMonth * A.storedMonths + (egressMb / 1024) * PRICES.s3.egressGb;
  const dynamo = (writes: number, reads: number) => (writes / 1e6) * PRICES.dynamodb.perMillionWrites + (reads / 1e6) * PRICES.dynamodb.perMillionReads;
  const sfn = (transitions: number) => (transitions / 1000) * PRICES.stepFunctions.perThousandTransitions;

  const imageTransitions = generationTransitions();
  const image = (operation: 'on-model' | 'edit' | 'upscale' | 'packshot', route: string, ai: number): Costs => {
    const resultMb = A.imageMb[operation]!;
    return {
      ai,
      lambda:
        gbSecondCost(route, A.durationMs.spendingRoute) +
        (A.imageHttpCalls - 1) * gbSecondCost('get-generation', A.durationMs.route) +
        gbSecondCost('generation-process', A.durationMs[`generation-process:${operation}`]) +
        A.fanOutCallsPerImage * gbSecondCost('ws-fan-out', A.durationMs['ws-fan-out']),
      stepFunctions: sfn(imageTransitions),
      dynamodb: dynamo(A.imageWriteUnits, A.imageReadUnits),
      // The source in, the result and its thumbnail out; each downloaded by the browser.
      s3: s3For(3, 1 + 2 * A.downloadsPerResult, A.sourceMb + resultMb + A.thumbnailMb, A.downloadsPerResult * (resultMb + A.thumbnailMb)),
      cloudFront: 0,
      apiGateway: (A.imageHttpCalls / 1e6) * PRICES.apiGateway.httpPerMillion + (A.fanOutCallsPerImage / 1e6) * PRICES.apiGateway.webSocketMessagesPerMillion,
    };
  };

  const transitions: Record<string, number> = { 'image, edit or upscale': imageTransitions };
  const video = (seconds: 5 | 8 | 16, outputs: number): Costs => {
    // The provider's clips (Luma Ray2: 5 s or 9 s, 16 s two 9 s clips; Omni: 5 s, 8 s, 16 s as two 8 s clips).
    const clipLengths = videoClips(selection, seconds);
    const clipSeconds = Math.max(...clipLengths);
    const clips = clipLengths.length;
    const checks = A.checksPerClip[clipSeconds] ?? Math.ceil(clipSeconds * 1.7);
    const steps = videoTransitions(clips, checks, outputs);
    transitions[`video ${seconds} s × ${outputs}`] = steps;
    const perOutputLambda =
      gbSecondCost('video-start-clip', A.durationMs['video-start-clip']) +
      (clips - 1) * gbSecondCost('video-start-clip', A.durationMs['video-start-clip:chained']) +
      clips * checks * gbSecondCost('video-check-clip', A.durationMs['video-check-clip']) +
      gbSecondCost('video-finalize-output', A.durationMs['video-finalize-output']);
    const videoMb = seconds * A.videoMbPerSecond;
    return {
      ai: outputs * (aiCost[`video-${seconds}s`] ?? 0),
      lambda:
        gbSecondCost('generate-video', A.durationMs.spendingRoute) +
        (A.videoHttpCalls - 1) * gbSecondCost('poll-operation', A.durationMs.route) +
        outputs * perOutputLambda +
        gbSecondCost('video-complete-job', A.durationMs['video-complete-job']) +
        A.fanOutCallsPerVideo * gbSecondCost('ws-fan-out', A.durationMs['ws-fan-out']),
      stepFunctions: sfn(steps),
      dynamodb: dynamo(A.videoWriteUnits + outputs, A.videoReadUnits),
      // Per output: raw clips written by the provider, the video and the poster; the clips read back to finalize.
      s3: s3For(1 + outputs * (clips + 2), outputs * (clips + 2 * A.downloadsPerResult), A.sourceMb + outputs * (clips * clipSeconds * A.videoMbPerSecond + videoMb + A.thumbnailMb), outputs * A.downloadsPerResult * (videoMb + A.thumbnailMb)),
      cloudFront: 0,
      apiGateway: (A.videoHttpCalls / 1e6) * PRICES.apiGateway.httpPerMillion + (A.fanOutCallsPerVideo / 1e6) * PRICES.apiGateway.webSocketMessagesPerMillion,
    };
  };

  const times1000 = (costs: Costs): Costs => Object.fromEntries(Object.entries(costs).map(([key, value]) => [key, value * 1000])) as Costs;
  const rows: { what: string; costs: Costs }[] = [
    { what: `on-model images (${label('image')})`, costs: image('on-model', 'generate-ai-image', aiCost['image-generation'] ?? 0) },
    { what: `edits (${label('edit')})`, costs: image('edit', 'edit-ai-image', aiCost['image-edit'] ?? 0) },
    { what: `upscales (${label('upscale')})`, costs: image('upscale', 'upscale-ai-image', aiCost['upscale-4k'] ?? 0) },
    // No provider: the packshot engine (U²-Net-p cutout) runs in the generation Process function.
    { what: 'packshots (packshot engine in Lambda)', costs: image('packshot', 'generate-packshot', 0) },
  ];
  for (const seconds of [5, 8, 16] as const) for (const outputs of [1, 3, 5]) rows.push({ what: `videos, ${seconds} s × ${outputs} output${outputs > 1 ? 's' : ''} (${label('video')})`, costs: video(seconds, outputs) });
  // A batch photo is one on-model generation run by the batch workflow's Map (its iteration adds about 2 transitions).
  const batchPhoto = image('on-model', 'generate-ai-image', aiCost['batch-photo'] ?? 0);
  batchPhoto.stepFunctions += sfn(2);
  rows.push({ what: `batch photos (${label('image')}, one Map iteration each)`, costs: batchPhoto });
  rows.push({
    what: 'web app loads (CloudFront)',
    costs: { ...zero(), cloudFront: (A.webLoadMb / 1024) * PRICES.cloudFront.egressGb + (A.webLoadRequests / 10_000) * PRICES.cloudFront.perTenThousandRequests },
  });

  return {
    idle,
    perThousand: rows.map(({ what, costs }) => {
      const scaled = times1000(costs);
      return { what, costs: scaled, total: Object.values(scaled).reduce((sum, value) => sum + value, 0) };
    }),
    transitions,
    resources,
  };
}

const usd = (value: number) => (value === 0 ? '0' : value < 0.01 ? '<0.01' : value.toFixed(2));

export function formatReport(report: CostReport): string {
  const lines: string[] = [];
  lines.push('Fixed monthly cost of an idle stage (USD):', '');
  lines.push('| item | per month |', '|---|---:|');
  for (const { item, monthlyUsd } of report.idle) lines.push(`| ${item} | ${usd(monthlyUsd)} |`);
  lines.push(`| **total** | **${usd(report.idle.reduce((sum, row) => sum + row.monthlyUsd, 0))}** |`, '');
  lines.push('Marginal cost per 1,000 (USD):', '');
  lines.push(`| per 1,000 | ${COLUMNS.map(([, label]) => label).join(' | ')} | total |`, `|---|${COLUMNS.map(() => '---:').join('|')}|---:|`);
  for (const { what, costs, total } of report.perThousand) lines.push(`| ${what} | ${COLUMNS.map(([key]) => usd(costs[key])).join(' | ')} | ${usd(total)} |`);
  lines.push('', 'State transitions per execution, walked from the ASL:', '');
  for (const [what, count] of Object.entries(report.transitions)) lines.push(`- ${what}: ${count}`);
  lines.push('', 'Prices (public list prices, us-east-1, stated not fetched):');
  for (const price of Object.values(PRICES)) lines.push(`- ${price.source}`);
  return lines.join('\n');
}

/** The provider sets a platform team chooses between (docs/deploy.md), with the prices shipped for each. */
export const PROVIDER_SETS: Array<{ name: string; selection: PriceSelection; pricingFile: string }> = [
  {
    name: 'google, the default (Gemini image + Gemini Omni 720p; upscale by the studio’s ESRGAN in Lambda)',
    selection: { providers: { image: 'google', edit: 'google', upscale: 'local', video: 'google' } },
    pricingFile: 'lib/pricing/google.json',
  },
  { name: 'bedrock + fashn (FASHN photos, Stability edits and upscales, Luma Ray2)', selection: BEDROCK_FASHN_SELECTION, pricingFile: 'lib/pricing/bedrock-fashn.json' },
  {
    name: 'google with Gemini 3 Pro image at 4K',
    selection: { providers: { image: 'google', edit: 'google', upscale: 'local', video: 'google' }, google: { imageModel: 'gemini-3-pro-image', imageMaxSize: '4K', videoModel: 'gemini-omni-1.1-flash' } },
    pricingFile: 'lib/pricing/google-pro.json',
  },
];

/** Each set's provider cost per operation against its shipped prices (and against the twin's, 1 credit a video). */
export function formatOperationCosts(read: (file: string) => string): string {
  const lines: string[] = ['', `Provider cost per operation, by provider set (list prices; a credit sells at $${USD_PER_CREDIT.toFixed(2)}):`];
  for (const set of PROVIDER_SETS) {
    // A tier the file does not name keeps the twin's price, as at synth (lib/pricing.ts).
    const prices = { ...Object.fromEntries(PRICING_TIER_SEED.map((tier) => [tier.id, tier.credits_cost])), ...JSON.parse(read(set.pricingFile)) } as TierPrices;
    lines.push('', `${set.name}: prices from ${set.pricingFile}`, '', '| tier | provider cost | basis | credits | price | margin |', '|---|---:|---|---:|---:|---:|');
    const margins = tierMargins(prices, set.selection);
    for (const tier of margins) {
      const margin = Number.isFinite(tier.margin) ? `${Math.round(tier.margin * 100)} %` : '—';
      lines.push(`| ${tier.tier} | $${tier.usd.toFixed(3)} | ${tier.basis} | ${tier.credits} | $${tier.priceUsd.toFixed(2)} | ${tier.usd > tier.priceUsd ? `**${margin}**` : margin} |`);
    }
    const below = margins.filter((tier) => tier.priceUsd < tier.usd).map((tier) => tier.tier);
    lines.push('', below.length === 0 ? `every tier at or above its list cost: yes` : `every tier at or above its list cost: NO (${below.join(', ')})`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { readFileSync } = await import('node:fs');
  const { synthModelLoop } = await import('../test/infra/synth.js');
  const context = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')).context as Record<string, unknown>;
  // Synthesized in-process, offline: no AWS account, no bundling (sizes come from the template, not the bundles).
  const synthesized = synthModelLoop({ nag: false });
  try {
    const { providers, googleAi } = synthesized.stack.config;
    const secrets = [
      providers.image === 'fashn' || providers.video === 'fashn' ? context.fashnApiKeySecretName : undefined,
      googleAi?.apiKeySecretName,
      context.googleClientId ? context.googleClientSecretName : undefined,
    ].filter((name): name is string => typeof name === 'string');
    console.log(`Providers from cdk.json: ${JSON.stringify(providers)}\n`);
    console.log(formatReport(costReport(synthesized.json, { secrets, selection: { providers, google: googleAi } })));
    console.log(formatOperationCosts((file) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')));
  } finally {
    synthesized.dispose();
  }
}
