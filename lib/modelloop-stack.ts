// The ModelLoop stack: wires the constructs together; each construct owns its own resources and settings.
import { Annotations, CfnOutput, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { UserPoolClientIdentityProvider } from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { MAP_CONCURRENCY_ENV } from '../lambdas/workflows.js';
import { expectedUpscaleSeconds, expectedVideoSeconds } from '../lambdas/contracts/expected-wait.js';
import { SUPPORT_MAIL_ENV } from '../lambdas/domain/support/mail.js';

/** The functions that mail the support address: tickets, and the demo page's contact requests. */
const SUPPORT_MAIL_HANDLERS = ['create-support-ticket', 'create-contact-request'] as const;
import { checkConcurrency } from './concurrency.js';
import { providerEnvName, type ModelLoopConfig, type ProviderPort } from './config.js';
import { Auth } from './constructs/auth.js';
import { grantMailToSellers, grantSupportMail, mailWarnings } from './constructs/mail.js';
import { Data } from './constructs/data.js';
import { BUCKET_OBJECT_ACTIONS, FunctionFactory } from './constructs/function-factory.js';
import { HttpApi } from './constructs/http-api.js';
import { MediaLayer } from './constructs/media-layer.js';
import { Payments } from './constructs/payments.js';
import { Operations } from './constructs/operations.js';
import { PricingTierSeed } from './constructs/pricing-tier-seed.js';
import { ProviderAccess } from './constructs/provider-access.js';
import { Realtime } from './constructs/realtime.js';
import { ModelCheck } from './constructs/model-check.js';
import { Reconciler } from './constructs/reconciler.js';
import { Storage } from './constructs/storage.js';
import { UrlSigner } from './constructs/url-signer.js';
import { WebHosting } from './constructs/web-hosting.js';
import { Shopify } from './constructs/shopify.js';
import { Workflows } from './constructs/workflows.js';

export interface ModelLoopStackProps extends StackProps {
  config: ModelLoopConfig;
}

export class ModelLoopStack extends Stack {
  /** The stage's settings, as read from the context (lib/config.ts). */
  readonly config: ModelLoopConfig;
  readonly auth: Auth;
  readonly data: Data;
  readonly storage: Storage;
  readonly providers: ProviderAccess;
  readonly mediaLayer: MediaLayer;
  readonly functions: FunctionFactory;
  readonly workflows: Workflows;
  readonly httpApi: HttpApi;
  readonly realtime: Realtime;
  readonly payments: Payments;
  readonly web: WebHosting;
  readonly reconciler: Reconciler;
  /** The daily model check, when a port uses a cloud provider. */
  readonly modelCheck?: ModelCheck;
  readonly operations: Operations;
  readonly shopify: Shopify;

  constructor(scope: Construct, id: string, props: ModelLoopStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;
    for (const { id, message } of mailWarnings(config)) Annotations.of(this).addWarningV2(id, message);

    this.auth = new Auth(this, 'Auth', {
      stage: config.stage,
      webOrigins: config.webOrigins,
      google: config.google,
      domainPrefix: config.authDomainPrefix,
      retain: config.retainData,
      emailFrom: config.authFromEmail,
      sesConfigurationSet: config.sesConfigurationSet,
    });
    this.data = new Data(this, 'Data', { retain: config.retainData });
    this.storage = new Storage(this, 'Storage', { retain: config.retainData });
    new PricingTierSeed(this, 'PricingTierSeed', { table: this.data.tables.pricingTiers, prices: config.pricing.tiers, imageProvider: config.providers.image });

    this.providers = new ProviderAccess(this, 'Providers', {
      providers: config.providers,
      bedrockRegion: config.bedrockRegion,
      fashn: config.fashn,
      googleAi: config.googleAi,
      videoOutputBucket: this.storage.buckets.results,
    });
    this.mediaLayer = new MediaLayer(this, 'MediaLayer');
    const urlSigner = new UrlSigner(this, 'UrlSigner', { buckets: Object.values(this.storage.buckets), objectActions: BUCKET_OBJECT_ACTIONS });
    this.shopify = new Shopify(this, 'Shopify', { appSecretName: config.shopifyAppSecretName });
    this.functions = new FunctionFactory({
      tables: this.data.tables,
      buckets: this.storage.buckets,
      environment: {
        ...Object.fromEntries(
          (Object.entries(config.providers) as [ProviderPort, string][]).map(([port, adapter]) => [providerEnvName(port), adapter]),
        ),
        ...(config.userLimits ? { USER_LIMITS: config.userLimits } : {}),
      },
      providers: this.providers,
      mediaLayer: this.mediaLayer,
      userPool: this.auth.userPool,
      memoryMaxMb: config.lambdaMemoryMax,
      urlSigner,
      secrets: this.shopify.secrets,
    });
    this.workflows = new Workflows(this, 'Workflows', { functions: this.functions });
    this.payments = new Payments(this, 'Payments', { settings: config.payments, stage: config.stage });
    const supportMailEnvironment = config.supportEmail
      ? {
          [SUPPORT_MAIL_ENV.to]: config.supportEmail.to,
          [SUPPORT_MAIL_ENV.from]: config.supportEmail.from,
          ...(config.sesConfigurationSet ? { [SUPPORT_MAIL_ENV.configurationSet]: config.sesConfigurationSet } : {}),
        }
      : {};
    this.httpApi = new HttpApi(this, 'HttpApi', {
      functions: this.functions,
      // Routes, integrations and invoke permissions (about 170 resources) in a nested stack of their own: see
      // test/infra/resource-budget.test.ts for what each stack may hold.
      routeScope: new NestedStack(this, 'ApiRoutesStack'),
      issuer: this.auth.issuer,
      audience: this.auth.webClient.userPoolClientId,
      webOrigins: config.webOrigins,
      routeEnvironment: {
        ...this.payments.routeEnvironment(),
        // The Maps' concurrency: lines of the stage's concurrency budget (lib/concurrency.ts).
        'generate-batch': { [MAP_CONCURRENCY_ENV.batch]: String(config.concurrency.budget.batchPhotos) },
        'generate-video': { [MAP_CONCURRENCY_ENV.video]: String(config.concurrency.budget.videoOutputs) },
        // Support tickets and the demo page's contact requests are mailed to the stage's support address.
        ...Object.fromEntries(SUPPORT_MAIL_HANDLERS.map((handler) => [handler, supportMailEnvironment])),
      },
    });
    // New support tickets and demo requests are mailed through SES from the stage's verified sender identity.
    if (config.supportEmail) for (const handler of SUPPORT_MAIL_HANDLERS) grantSupportMail(this.httpApi.functions[handler], config.supportEmail, config.sesConfigurationSet);
    this.realtime = new Realtime(this, 'Realtime', {
      functions: this.functions,
      tables: this.data.tables,
      issuer: this.auth.issuer,
      audience: this.auth.webClient.userPoolClientId,
      streamParallelization: config.concurrency.budget.streamParallelization,
    });

    this.reconciler = new Reconciler(this, 'Reconciler', { functions: this.functions });
    // Every day, whether each model the stage calls is still served (a stage on the local engine calls none).
    if (Object.values(config.providers).some((adapter) => adapter !== 'local')) {
      this.modelCheck = new ModelCheck(this, 'ModelCheck', { functions: this.functions, providers: this.providers });
    }
    // Alarms and the dashboard in a nested stack: the studio's functions and their grants fill most of the 500
    // resources CloudFormation allows one stack, and what watches them grows with them.
    this.operations = new Operations(new NestedStack(this, 'OperationsStack'), 'Operations', {
      alarmEmail: config.alarmEmail,
      deadLetterQueues: {
        'table streams (live updates and webhook events)': this.realtime.deadLetterQueue,
        'workflow-ended rule': this.workflows.deadLetterQueue,
        'reconciler schedule': this.reconciler.deadLetterQueue,
        ...(this.modelCheck ? { 'model check schedule': this.modelCheck.deadLetterQueue } : {}),
      },
      functionGroups: {
        api: Object.values(this.httpApi.functions),
        workflows: this.workflows.functions,
        realtime: Object.values(this.realtime.functions),
        operations: [this.reconciler.function, ...(this.modelCheck ? [this.modelCheck.function] : [])],
      },
      stateMachines: this.workflows.stateMachines,
      httpApi: this.httpApi.api,
    });

    const authDomain = this.auth.domain && `${this.auth.domain.domainName}.auth.${this.region}.amazoncognito.com`;
    this.web = new WebHosting(this, 'Web', {
      webRoot: config.webRoot,
      apiUrl: this.httpApi.url,
      websocketUrl: this.realtime.url,
      userPool: this.auth.userPool,
      userPoolClient: this.auth.webClient,
      hostedUi: authDomain ? { domain: authDomain, providers: [UserPoolClientIdentityProvider.GOOGLE.name] } : undefined,
      dataBuckets: Object.values(this.storage.buckets),
      accessLogs: this.storage.accessLogs,
      payments: config.payments.mode,
      shopify: this.shopify.enabled,
      expectedVideoSeconds: expectedVideoSeconds(config.providers.video),
      expectedUpscaleSeconds: expectedUpscaleSeconds(config.providers.upscale),
    });
    this.auth.addReturnOrigin(this.web.url);
    // The app's own CloudFront URL is always allowed; webOrigins adds others (a custom domain, a local web app on dev).
    this.storage.allowWebOrigins([...new Set([...config.webOrigins, this.web.url])]);
    this.payments.wire(this.httpApi.functions, { apiUrl: this.httpApi.url, webUrl: this.web.url });
    // "Download my data" is mailed, when the stage has a sender, with a link to the web app's Settings.
    const exportMail = this.workflows.taskFunctions.accountExport!.MailExport!;
    exportMail.addEnvironment('WEB_URL', this.web.url);
    if (config.supportEmail) {
      exportMail.addEnvironment(SUPPORT_MAIL_ENV.from, config.supportEmail.from);
      if (config.sesConfigurationSet) exportMail.addEnvironment(SUPPORT_MAIL_ENV.configurationSet, config.sesConfigurationSet);
      grantMailToSellers(exportMail, config.supportEmail.from, config.sesConfigurationSet);
    }
    this.shopify.wire(this.functions.created, { webUrl: this.web.url });

    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.webClient.userPoolClientId });
    if (authDomain) new CfnOutput(this, 'AuthDomain', { value: authDomain });
    // The API's own endpoint: for the public /v1 API and webhooks; the web app calls it as WebUrl/api.
    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url });
    new CfnOutput(this, 'WebSocketUrl', { value: this.realtime.url });
    new CfnOutput(this, 'WebUrl', { value: this.web.url });

    // Last, over everything built: what can hold Lambda executions at once fits the account (lib/concurrency.ts).
    checkConcurrency(this, config.concurrency.account, config.concurrency.budget);
  }
}
