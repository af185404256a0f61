// Deployment settings, read once from CDK context (cdk.json, or `-c key=value` on the command line).
//
// Context keys:
//   stage                   name of the deployment ('dev' by default); part of the stack name. Every stage except
//                           'dev' keeps its user data (tables, buckets, user pool) when the stack is deleted.
//   webOrigins              extra origins of the web app, besides the stage's own CloudFront URL (which is always
//                           allowed: the app calls the API same-origin under /api, and the upload buckets' CORS gets the
//                           distribution's domain at deploy time), allowed by CORS (API and presigned S3 uploads) and
//                           as sign-in callbacks. Per stage: an object of lists by stage name in cdk.json
//                           ({"dev": ["http://localhost:5173"]}), or a list / comma-separated string for the stage
//                           being synthesized (-c webOrigins=https://studio.example.com). Any stage but 'dev' accepts
//                           only https:// origins (no '*', no http://localhost) and needs none.
//   googleClientId          Google OAuth client id; when given, the user pool gets a Google identity provider and
//   googleClientSecretName  a hosted UI domain, the client secret read from Secrets Manager under this name.
//   authDomainPrefix        hosted UI domain prefix (default modelloop-<stage>-<account>), used only with Google.
//   payments                how credits are bought (PAYMENTS on the payment functions, `payments` in config.json):
//                           'stripe' card payments through Stripe Checkout, granted by its verified webhook (the default
//                           on every stage but dev); 'test' the clearly labelled test payment, allowed only on a stage
//                           listed in testStages and never on 'prod' (synth fails); 'off' no purchases (dev's default).
//   testPayments            the older switch: true means payments 'test', with the same checks.
//   testStages              the stages where payments 'test' may be chosen (default: dev, staging); 'prod' can't be one.
//   stripeApiKeySecretName  with payments 'stripe': the Secrets Manager secrets holding Stripe's secret API key and the
//   stripeWebhookSecretName webhook endpoint's signing secret (plain strings; default modelloop/<stage>/stripe-…).
//   userLimits              overrides of the per-user limits (USER_LIMITS in lambdas/contracts/catalog.ts), e.g.
//                           {"rates":{"spending":{"limit":50,"windowSeconds":10}},"running":{"video":3}}; passed to
//                           every function as USER_LIMITS.
//   alarmEmail              e-mail address subscribed to the operations alarm topic (SNS; the address confirms the
//                           subscription from the mail AWS sends). Without it the alarms still notify the topic,
//                           which has no subscriber until one is added.
//   supportEmail            where support tickets are mailed (SES); supportFromEmail the SES-verified sender (default:
//   supportFromEmail        supportEmail). Without them tickets are still stored and listed; the mail is logged as failed.
//   authFromEmail           the SES-verified sender of the user pool's mail (sign-up codes, password resets). When set,
//                           Cognito mails through SES (EmailSendingAccount DEVELOPER); without it, through Cognito's
//                           default sender, which sends 50 mails a day. It never follows supportFromEmail: the codes
//                           move to SES only when this key names a sender (synth notes when only the support mail does).
//   sesSandbox              whether the account's SES is still in the sandbox (default true: a new account's is), where
//                           SES delivers only to verified addresses. Synth warns when authFromEmail would move sign-up
//                           codes to SES while this is true; set it to false once SES has granted production access.
//   sesConfigurationSet     an SES configuration set the support mail and the user pool's mail name (default none);
//                           the support mail's grant then covers it too.
//   webRoot                 folder of the built web app that CloudFront serves (default web/dist, built by
//                           `npm run build:web`); relative paths are taken from the working directory.
//   imageProvider, editProvider, upscaleProvider, videoProvider
//                           the adapter each AI port uses, passed to the functions as PROVIDER_IMAGE, PROVIDER_EDIT,
//                           PROVIDER_UPSCALE, PROVIDER_VIDEO. The defaults need one secret and work in every region:
//                           'google' for on-model photos, edits and videos (Gemini image, Gemini Omni), and 'local' for
//                           upscales (the studio's own ESRGAN + Lanczos, run in the generation workflow's Upscale
//                           function). Options: 'fashn' (photos, videos; needs fashnApiUrl, fashnApiKeySecretName),
//                           'bedrock' (edit and upscale: Stability, called from us-east-1, us-east-2 or us-west-2;
//                           video: Luma Ray2, us-west-2 only).
//   bedrockRegion           region of the Bedrock calls (BEDROCK_REGION; default: the stack's region). The Stability
//                           image services (edit, upscale) are reached through the US cross-region inference profile
//                           only: us-east-1, us-east-2 or us-west-2.
//   fashnApiUrl             with imageProvider or videoProvider 'fashn' (required then): the FASHN API (FASHN_API_URL,
//   fashnApiKeySecretName   https://), the Secrets Manager secret holding its key (FASHN_API_KEY_SECRET), and
//   fashnOutputHosts        optionally extra hosts result files may come from (FASHN_OUTPUT_HOSTS, comma-separated).
//   googleApiKeySecretName  with any port on 'google': the Secrets Manager secret holding the Gemini API key
//                           (GOOGLE_API_KEY_SECRET; default modelloop/<stage>/google-api-key).
//   pricing, pricingFile, allowBelowCost
//                           the stage's prices and its margin check: see lib/pricing.ts.
//   googleImageModel, googleImageMaxSize, googleTextModel, googleVideoModel, googleVideoResolution
//                           the Google model ids, the largest Gemini image size asked for and Omni's video resolution
//                           (GOOGLE_IMAGE_MODEL, GOOGLE_IMAGE_MAX_SIZE, GOOGLE_TEXT_MODEL, GOOGLE_VIDEO_MODEL,
//                           GOOGLE_VIDEO_RESOLUTION; defaults in lambdas/providers/google/models.ts). An id the dated
//                           model table (lambdas/providers/google/model-table.ts) does not know, or one past its
//                           shutdown, is refused naming the replacement (lib/model-check.ts); one that shuts down
//                           within 60 days is a warning.
//   accountConcurrency      the account's concurrent Lambda executions in the stack's region (default 10, a new
//                           account's). Synth refuses a stage whose concurrency budget adds up to more.
//   concurrencyBudget       lines of the concurrency budget over a new account's (lib/concurrency.ts): api, batchPhotos,
//                           videoOutputs, streamParallelization, e.g. {"api":50,"batchPhotos":10,"videoOutputs":4}.
//   shopifyAppSecretName    the Secrets Manager secret of the stage's Shopify app, JSON {"apiKey": client id,
//                           "apiSecret": client secret} (docs/deploy.md: creating the app); without it the stage does
//                           not publish to Shopify (no Shops in Settings).
//   lambdaMemoryMax         the most memory (MB) any function may ask for (default 3008): "New AWS accounts have reduced
//                           concurrency and memory quotas" (Lambda quotas, docs.aws.amazon.com/lambda/latest/dg/
//                           gettingstarted-limits.html), 3,008 MB for a new account's functions. Synth refuses a
//                           function above it; raise it only once the account's quota allows more.
import type { Node } from 'constructs';
import { readAccountConcurrency, readConcurrencyBudget, type ConcurrencyBudget } from './concurrency.js';
import { checkMargins, readPricing, type PricingSettings } from './pricing.js';
import { checkModels } from './model-check.js';
import { userLimits } from '../lambdas/domain/limits-config.js';
import { PROVIDER_CHOICES } from '../lambdas/providers/choices.js';
import { GEMINI_IMAGE_SIZES, GOOGLE_DEFAULTS, type GeminiImageSize } from '../lambdas/providers/google/models.js';
import { OMNI_RESOLUTIONS, type OmniResolution } from '../lambdas/providers/google/model-table.js';

export const PROVIDER_DEFAULTS = {
  image: 'google',
  edit: 'google',
  upscale: 'local',
  video: 'google',
} as const;

/** The most memory a new AWS account's functions may have (Lambda quotas: reduced memory quota on new accounts). */
export const NEW_ACCOUNT_LAMBDA_MEMORY_MB = 3008;
/** Lambda's own ceiling, whatever the account. */
const LAMBDA_MEMORY_CEILING_MB = 10_240;
export type ProviderPort = keyof typeof PROVIDER_DEFAULTS;

export const providerEnvName = (port: ProviderPort): string => `PROVIDER_${port.toUpperCase()}`;

export interface GoogleSignIn {
  clientId: string;
  clientSecretName: string;
}

export interface FashnSettings {
  apiUrl: string;
  apiKeySecretName: string;
  outputHosts?: string;
}

/** The Google adapters' settings (CDK context google*), given when any port uses 'google'. */
export interface GoogleAiSettings {
  apiKeySecretName: string;
  imageModel: string;
  imageMaxSize: GeminiImageSize;
  textModel: string;
  videoModel: string;
  videoResolution: OmniResolution;
}

export type PaymentsSettings =
  | { mode: 'stripe'; apiKeySecretName: string; webhookSecretName: string }
  | { mode: 'test' }
  | { mode: 'off' };

/** The stage that takes real money: the test payment can never be turned on there. */
export const PROD_STAGE = 'prod';
const DEFAULT_TEST_STAGES = ['dev', 'staging'];

export interface ModelLoopConfig {
  stage: string;
  webOrigins: string[];
  google?: GoogleSignIn;
  authDomainPrefix?: string;
  /** How credits are bought on this stage. */
  payments: PaymentsSettings;
  providers: Record<ProviderPort, string>;
  /** Region of the Bedrock calls; the stack's region when absent. */
  bedrockRegion?: string;
  /** The FASHN API, given when imageProvider or videoProvider is 'fashn'. */
  fashn?: FashnSettings;
  /** The Google adapters' settings, given when any port uses 'google'. */
  googleAi?: GoogleAiSettings;
  /** The stage's pricing tiers (seeded at deploy time), checked against its providers' list prices. */
  pricing: PricingSettings;
  /** Folder of the built web app; the web hosting construct's default when absent. */
  webRoot?: string;
  /** Whether user data outlives the stack (retain + deletion protection). */
  retainData: boolean;
  /** Overrides of the per-user limits (USER_LIMITS of the catalogue), as the JSON the functions read. */
  userLimits?: string;
  /** Subscribed by e-mail to the alarm topic. */
  alarmEmail?: string;
  /** Where support tickets are mailed (`supportEmail`) and the SES-verified sender they come from (`supportFromEmail`). */
  supportEmail?: { to: string; from: string };
  /** The SES-verified sender of the user pool's mail (`authFromEmail` only); Cognito's own sender without. */
  authFromEmail?: string;
  /** Whether the account's SES is still in the sandbox (`sesSandbox`, default true). */
  sesSandbox: boolean;
  /** The SES configuration set both mails name (`sesConfigurationSet`). */
  sesConfigurationSet?: string;
  /** The most memory (MB) any function may ask for (context lambdaMemoryMax). */
  lambdaMemoryMax: number;
  /** The account's concurrent executions (accountConcurrency) and the stage's budget of them (concurrencyBudget). */
  concurrency: { account: number; budget: ConcurrencyBudget };
  /** The Shopify app's credentials secret (context shopifyAppSecretName); undefined: no Shopify. */
  shopifyAppSecretName?: string;
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

export function readConfig(node: Node): ModelLoopConfig {
  const text = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`Context ${key} must be a string, got ${JSON.stringify(value)}`);
    return value;
  };

  const stage = text('stage') ?? 'dev';
  if (!STAGE_PATTERN.test(stage)) throw new Error(`Context stage must match ${STAGE_PATTERN}, got '${stage}'`);

  const googleClientId = text('googleClientId');
  const googleClientSecretName = text('googleClientSecretName');
  if (googleClientId && !googleClientSecretName) {
    throw new Error('Context googleClientId is given without googleClientSecretName');
  }

  const providers = Object.fromEntries(
    (Object.keys(PROVIDER_DEFAULTS) as ProviderPort[]).map((port) => [
      port,
      text(`${port}Provider`) ?? PROVIDER_DEFAULTS[port],
    ]),
  ) as Record<ProviderPort, string>;
  for (const [port, adapter] of Object.entries(providers) as [ProviderPort, string][]) {
    const allowed: readonly string[] = PROVIDER_CHOICES[providerEnvName(port) as keyof typeof PROVIDER_CHOICES];
    if (!allowed.includes(adapter)) throw new Error(`Context ${port}Provider must be one of ${allowed.join(', ')}, got '${adapter}'`);
  }

  const bedrockRegion = text('bedrockRegion');
  if (bedrockRegion !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d$/.test(bedrockRegion)) {
    throw new Error(`Context bedrockRegion must be a region name such as us-west-2, got '${bedrockRegion}'`);
  }
  const fashn = providers.image === 'fashn' || providers.video === 'fashn' ? readFashn(text) : undefined;
  const googleAi = Object.values(providers).includes('google') ? readGoogleAi(stage, text) : undefined;
  checkModels(stage, { providers, google: googleAi });
  const pricing = readPricing(node, stage);
  checkMargins(stage, pricing, { providers, google: googleAi });

  return {
    stage,
    webOrigins: readOrigins(node.tryGetContext('webOrigins'), stage),
    google: googleClientId && googleClientSecretName ? { clientId: googleClientId, clientSecretName: googleClientSecretName } : undefined,
    authDomainPrefix: text('authDomainPrefix'),
    payments: readPayments(stage, text, node),
    providers,
    bedrockRegion,
    fashn,
    googleAi,
    pricing,
    webRoot: text('webRoot'),
    retainData: stage !== 'dev',
    userLimits: readUserLimits(node.tryGetContext('userLimits')),
    alarmEmail: readEmail(text('alarmEmail')),
    supportEmail: readSupportEmail(text('supportEmail'), text('supportFromEmail')),
    authFromEmail: readEmail(text('authFromEmail'), 'authFromEmail'),
    // A new account's SES is in the sandbox until AWS grants production access: assumed until the stage says otherwise.
    sesSandbox: node.tryGetContext('sesSandbox') === undefined ? true : readFlag('sesSandbox', node.tryGetContext('sesSandbox')),
    sesConfigurationSet: readConfigurationSet(text('sesConfigurationSet')),
    lambdaMemoryMax: readLambdaMemoryMax(node.tryGetContext('lambdaMemoryMax')),
    concurrency: { account: readAccountConcurrency(node.tryGetContext('accountConcurrency')), budget: readConcurrencyBudget(node.tryGetContext('concurrencyBudget')) },
    shopifyAppSecretName: text('shopifyAppSecretName'),
  };
}

function readLambdaMemoryMax(value: unknown): number {
  if (value === undefined || value === null || value === '') return NEW_ACCOUNT_LAMBDA_MEMORY_MB;
  const mb = typeof value === 'string' ? Number(value) : value;
  if (typeof mb !== 'number' || !Number.isInteger(mb) || mb < 128 || mb > LAMBDA_MEMORY_CEILING_MB) {
    throw new Error(`Context lambdaMemoryMax must be a whole number of MB from 128 to ${LAMBDA_MEMORY_CEILING_MB}, got ${JSON.stringify(value)}`);
  }
  return mb;
}

function readFashn(text: (key: string) => string | undefined): FashnSettings {
  const apiUrl = text('fashnApiUrl');
  const apiKeySecretName = text('fashnApiKeySecretName');
  if (!apiUrl || !apiKeySecretName) {
    throw new Error('Context imageProvider or videoProvider is fashn: fashnApiUrl and fashnApiKeySecretName are required (or choose another provider)');
  }
  if (!apiUrl.startsWith('https://')) throw new Error(`Context fashnApiUrl must be an https:// URL, got '${apiUrl}'`);
  return { apiUrl, apiKeySecretName, outputHosts: text('fashnOutputHosts') };
}

function readGoogleAi(stage: string, text: (key: string) => string | undefined): GoogleAiSettings {
  const imageMaxSize = text('googleImageMaxSize') ?? GOOGLE_DEFAULTS.imageMaxSize;
  const sizes: readonly string[] = GEMINI_IMAGE_SIZES.map((size) => size.name);
  if (!sizes.includes(imageMaxSize)) throw new Error(`Context googleImageMaxSize must be one of ${sizes.join(', ')}, got '${imageMaxSize}'`);
  const videoResolution = text('googleVideoResolution') ?? GOOGLE_DEFAULTS.videoResolution;
  if (!(OMNI_RESOLUTIONS as readonly string[]).includes(videoResolution)) {
    throw new Error(`Context googleVideoResolution must be one of ${OMNI_RESOLUTIONS.join(', ')}, got '${videoResolution}'`);
  }
  return {
    apiKeySecretName: text('googleApiKeySecretName') ?? `modelloop/${stage}/google-api-key`,
    imageModel: text('googleImageModel') ?? GOOGLE_DEFAULTS.imageModel,
    imageMaxSize: imageMaxSize as GeminiImageSize,
    textModel: text('googleTextModel') ?? GOOGLE_DEFAULTS.textModel,
    videoModel: text('googleVideoModel') ?? GOOGLE_DEFAULTS.videoModel,
    videoResolution: videoResolution as OmniResolution,
  };
}

/**
 * Extra CORS origins of the API and the upload buckets (the stage's CloudFront URL is added by the stack). The context
 * is either an object of lists by stage name (cdk.json: each stage its own) or a list / comma-separated string for the
 * stage being synthesized (the command line). On 'dev' anything goes ('*' when nothing is given, http://localhost for
 * a local web app). Any other stage serves real people: only https origins, named explicitly, are allowed, so a stage
 * never answers a page of another site and never sends tokens back to an http:// (or localhost) sign-in callback; with
 * none given it allows only its own CloudFront URL.
 */
function readOrigins(value: unknown, stage: string): string[] {
  const perStage = value !== null && typeof value === 'object' && !Array.isArray(value);
  const forStage: unknown = perStage ? (value as Record<string, unknown>)[stage] : value;
  const given = forStage !== undefined && forStage !== null && forStage !== '';
  const origins = given
    ? (Array.isArray(forStage) ? forStage : String(forStage).split(',')).map((origin) => String(origin).trim())
    : stage === 'dev'
      ? ['*']
      : [];
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/]+$/.test(origin)) {
      throw new Error(`Context webOrigins: '${origin}' is not an origin (scheme://host[:port], no path)`);
    }
    if (stage !== 'dev' && (origin === '*' || origin.startsWith('http://'))) {
      throw new Error(
        `Context webOrigins: '${origin}' is not allowed on stage '${stage}': outside 'dev' only https:// origins are ` +
          `accepted. The stage's own CloudFront URL is always allowed; name only other https:// origins (a custom domain).`,
      );
    }
  }
  return origins;
}

/** `userLimits`: an object (cdk.json) or its JSON (command line) of the catalogue's USER_LIMITS shape, checked here. */
function readUserLimits(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const limits = typeof value === 'string' ? JSON.parse(value) : value;
  userLimits({ USER_LIMITS: JSON.stringify(limits) });
  return JSON.stringify(limits);
}

function readEmail(value: string | undefined, key = 'alarmEmail'): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new Error(`Context ${key} must be an e-mail address, got '${value}'`);
  return value;
}

/** The support mail's address and its sender (the same address unless `supportFromEmail` names another). */
function readSupportEmail(to: string | undefined, from: string | undefined): ModelLoopConfig['supportEmail'] {
  const address = readEmail(to, 'supportEmail');
  if (address === undefined) {
    if (from !== undefined) throw new Error('Context supportFromEmail needs supportEmail');
    return undefined;
  }
  return { to: address, from: readEmail(from, 'supportFromEmail') ?? address };
}

/** An SES configuration set name: 1 to 64 letters, digits, '-' and '_' (the SES and Cognito API references). */
function readConfigurationSet(value: string | undefined): string | undefined {
  if (value !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw new Error(`Context sesConfigurationSet must be an SES configuration set name, got '${value}'`);
  return value;
}

function readFlag(key: string, value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new Error(`Context ${key} must be true or false, got ${JSON.stringify(value)}`);
}

function readPayments(stage: string, text: (key: string) => string | undefined, node: Node): PaymentsSettings {
  const legacyTest = readFlag('testPayments', node.tryGetContext('testPayments'));
  const chosen = text('payments');
  if (chosen !== undefined && !['stripe', 'test', 'off'].includes(chosen)) {
    throw new Error(`Context payments must be stripe, test or off, got '${chosen}'`);
  }
  if (legacyTest && chosen !== undefined && chosen !== 'test') {
    throw new Error(`Context testPayments=true contradicts payments=${chosen}; use payments alone`);
  }
  const mode = (chosen ?? (legacyTest ? 'test' : stage === 'dev' ? 'off' : 'stripe')) as PaymentsSettings['mode'];
  const testStages = readList(node.tryGetContext('testStages')) ?? DEFAULT_TEST_STAGES;
  if (testStages.includes(PROD_STAGE)) throw new Error(`Context testStages can't include '${PROD_STAGE}': the test payment gives credits away`);
  if (mode === 'test') {
    const via = legacyTest ? 'testPayments=true' : 'payments=test';
    if (stage === PROD_STAGE) throw new Error(`Context ${via} is refused on stage '${PROD_STAGE}': the test payment gives credits away`);
    if (!testStages.includes(stage)) {
      throw new Error(`Context ${via} is allowed only on a test stage (testStages: ${testStages.join(', ')}), not on '${stage}'`);
    }
  }
  if (mode !== 'stripe') return { mode };
  return {
    mode,
    apiKeySecretName: text('stripeApiKeySecretName') ?? `modelloop/${stage}/stripe-api-key`,
    webhookSecretName: text('stripeWebhookSecretName') ?? `modelloop/${stage}/stripe-webhook-secret`,
  };
}

function readList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return (Array.isArray(value) ? value : String(value).split(',')).map((item) => String(item).trim()).filter(Boolean);
}
