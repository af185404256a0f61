// What a function that calls an AI port needs in the cloud, for the adapters this deployment selects (lib/config.ts):
// the adapters' settings in its environment and least-privilege IAM for the capabilities it declares (`providers` in
// lambdas/workflows.ts). The function factory calls `grant` with the declaration, as it does for tables and buckets.
//
// IAM per capability, only when its port uses a cloud adapter ('local' needs nothing):
//   onModelImage (fashn)  secretsmanager:GetSecretValue on the API key secret.
//   video (fashn)         the same, and s3:PutObject on the raw-clip folders: the status check copies a finished clip
//                         from FASHN's CDN into the results bucket.
//   edit, upscale         bedrock:InvokeModel on the Stability models the adapter calls. They are called through the
//   (bedrock)             US cross-region inference profile (`us.` ids), which needs the profile in BEDROCK_REGION and
//                         the foundation model in every region the profile routes to.
//   video (bedrock)       Luma Ray2: bedrock:InvokeModel (StartAsyncInvoke is authorized as InvokeModel on the model),
//                         StartAsyncInvoke/GetAsyncInvoke on this account's async invocations; s3:PutObject on the
//                         raw-clip folders, because Bedrock writes the MP4 with the caller's permissions; and
//                         s3:ListBucket on those folders, where the adapter finds the MP4.
//   any port (google)     secretsmanager:GetSecretValue on the Gemini API key secret; video also s3:PutObject on the
//                         raw-clip folders, where the check stores the clip it downloads from the Gemini API.
//   the model check       (lib/constructs/model-check.ts, daily) the settings, GetSecretValue on the key secrets of
//                         the providers in use (Google's models.get, FASHN's credits), and bedrock:GetFoundationModel
//                         on the foundation models the Bedrock ports call: nothing that makes or pays for anything.
//   every Bedrock port    AWS Marketplace: Bedrock's model-access page is retired; the first call of a third-party
//                         model (Stability, Luma) subscribes the account, as the caller, which needs
//                         aws-marketplace:Subscribe, Unsubscribe and ViewSubscriptions ("Request access to models",
//                         https://docs.aws.amazon.com/bedrock/latest/userguide/model-access.html). Subscribe is
//                         limited to Luma Ray2's product id when video is the only Bedrock port; the Stability
//                         model cards publish no product id, so with edit or upscale on Bedrock it is not limited.
//
// Region: Luma Ray2 runs in us-west-2 only, and StartAsyncInvoke writes into a bucket of the call's region, which is
// the results bucket of this stack. So video on 'bedrock' needs the stack and BEDROCK_REGION in us-west-2: synth
// refuses anything else, and an environment-agnostic synth carries a CloudFormation rule that refuses the deploy.
import { posix } from 'node:path';
import { CfnRule, Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { rawClipKey } from '../../lambdas/domain/video/keys.js';
import { LUMA_RAY2_MARKETPLACE_PRODUCT_ID, LUMA_RAY2_MODEL_ID, LUMA_RAY2_REGIONS } from '../../lambdas/providers/bedrock/luma-model.js';
import {
  DEFAULT_STABILITY_MODEL_IDS,
  STABILITY_PROFILE_REGIONS,
  type StabilityModelIds,
} from '../../lambdas/providers/bedrock/stability-models.js';
import { bedrockModelsFor } from '../../lambdas/providers/bedrock/model-table.js';
import type { Providers } from '../../lambdas/providers/registry.js';
import type { FashnSettings, GoogleAiSettings, ProviderPort } from '../config.js';
import { nagResourceName } from './nag-names.js';

export type ProviderCapability = keyof Providers;

const PORT_OF: Record<ProviderCapability, ProviderPort> = { onModelImage: 'image', edit: 'edit', upscale: 'upscale', video: 'video' };

/** The Stability services behind each port (lambdas/providers/bedrock/stability-edit.ts, stability-upscale.ts). */
const STABILITY_SERVICES: Record<'edit' | 'upscale', (keyof StabilityModelIds)[]> = {
  edit: ['searchReplace', 'searchRecolor', 'removeBackground'],
  upscale: ['fastUpscale'],
};
const US_PROFILE_PREFIX = 'us.';

/** Bedrock writes a clip under its raw-clip key (used as a prefix): `<user>/videos/<job>/raw/...`. */
const RAW_CLIPS = `${posix.dirname(rawClipKey('*', '*', 0, 0))}/*`;

export interface ProviderAccessProps {
  /** The adapter of each port (context imageProvider, editProvider, upscaleProvider, videoProvider). */
  providers: Record<ProviderPort, string>;
  /** Region of the Bedrock calls; default: the stack's region. */
  bedrockRegion?: string;
  /** Required when the image or the video port uses 'fashn'. */
  fashn?: FashnSettings;
  /** Required when any port uses 'google'. */
  googleAi?: GoogleAiSettings;
  /** The bucket the video workflow asks the video provider to write clips to (the results bucket). */
  videoOutputBucket: Bucket;
}

export class ProviderAccess extends Construct {
  /** The adapters' settings, given to every function that calls a provider. */
  readonly environment: Record<string, string>;
  private readonly bedrockRegion: string;
  private readonly fashnSecret?: ISecret;
  private readonly googleSecret?: ISecret;

  constructor(scope: Construct, id: string, private readonly props: ProviderAccessProps) {
    super(scope, id);
    const { providers, fashn } = props;
    this.bedrockRegion = props.bedrockRegion ?? Stack.of(this).region;
    const stability = providers.edit === 'bedrock' || providers.upscale === 'bedrock';
    const profileRegions: readonly string[] = STABILITY_PROFILE_REGIONS;
    if (stability && !Token.isUnresolved(this.bedrockRegion) && !profileRegions.includes(this.bedrockRegion)) {
      throw new Error(
        `Bedrock region ${this.bedrockRegion}: the Stability image services (edit and upscale on bedrock) are reached through ` +
          `the US cross-region inference profile, called from ${profileRegions.join(', ')}; set context bedrockRegion to one of them`,
      );
    }
    if (providers.video === 'bedrock') this.requireLumaRegion();
    const bedrock = (['edit', 'upscale', 'video'] as const).some((port) => providers[port] === 'bedrock');
    const fashnUsed = providers.image === 'fashn' || providers.video === 'fashn';
    if (fashnUsed && !fashn) throw new Error('The fashn adapters need their settings (context fashnApiUrl, fashnApiKeySecretName)');
    const fashnSettings = fashnUsed ? fashn : undefined;
    if (fashnSettings) this.fashnSecret = Secret.fromSecretNameV2(this, 'FashnApiKey', fashnSettings.apiKeySecretName);
    const google = Object.values(providers).includes('google');
    if (google && !props.googleAi) throw new Error('The google adapters need their settings (context googleApiKeySecretName)');
    const googleAi = google ? props.googleAi : undefined;
    if (googleAi) this.googleSecret = Secret.fromSecretNameV2(this, 'GoogleApiKey', googleAi.apiKeySecretName);
    this.environment = {
      ...(bedrock ? { BEDROCK_REGION: this.bedrockRegion } : {}),
      ...(googleAi
        ? {
            GOOGLE_API_KEY_SECRET: googleAi.apiKeySecretName,
            GOOGLE_IMAGE_MODEL: googleAi.imageModel,
            GOOGLE_IMAGE_MAX_SIZE: googleAi.imageMaxSize,
            GOOGLE_TEXT_MODEL: googleAi.textModel,
            GOOGLE_VIDEO_MODEL: googleAi.videoModel,
            GOOGLE_VIDEO_RESOLUTION: googleAi.videoResolution,
          }
        : {}),
      ...(fashnSettings
        ? {
            FASHN_API_URL: fashnSettings.apiUrl,
            FASHN_API_KEY_SECRET: fashnSettings.apiKeySecretName,
            ...(fashnSettings.outputHosts ? { FASHN_OUTPUT_HOSTS: fashnSettings.outputHosts } : {}),
          }
        : {}),
    };
  }

  /**
   * Luma Ray2 (video on 'bedrock') runs in us-west-2 only, and writes its clips into the results bucket, which lives
   * in the stack's region: both must be us-west-2. A region known at synth is checked here; an environment-agnostic
   * synth gets a CloudFormation rule with the same message, checked before anything is created.
   */
  private requireLumaRegion(): void {
    const regions: readonly string[] = LUMA_RAY2_REGIONS;
    const stackRegion = Stack.of(this).region;
    const message =
      `Video on Bedrock (videoProvider bedrock) calls Luma Ray2, which Amazon Bedrock offers in ${regions.join(', ')} only, and ` +
      `Bedrock writes each clip into the results bucket, which must be in the same region as the call: deploy this stage ` +
      `to ${regions.join(', ')} with bedrockRegion unset or ${regions.join(', ')}, or choose another videoProvider`;
    for (const region of [this.bedrockRegion, stackRegion]) {
      if (!Token.isUnresolved(region) && !regions.includes(region)) throw new Error(`${message} (got region ${region})`);
    }
    if (Token.isUnresolved(stackRegion)) {
      new CfnRule(this, 'LumaRegion', {
        assertions: [{ assert: Fn.conditionContains([...regions], stackRegion), assertDescription: message }],
      });
    }
  }

  /** Passes the settings and grants what the selected adapters of these capabilities call. */
  grant(fn: IFunction & { addEnvironment(key: string, value: string): unknown }, capabilities: readonly ProviderCapability[]): void {
    const role = fn.role;
    if (!role) throw new Error(`Function ${fn.node.path} has no role to grant provider access to`);
    // The registry checks the whole provider configuration whichever port a function calls, so every provider
    // function gets all the settings (no secrets: names and URLs); access is granted per declared capability.
    for (const [name, value] of Object.entries(this.environment)) fn.addEnvironment(name, value);
    for (const capability of new Set(capabilities)) {
      const adapter = this.props.providers[PORT_OF[capability]];
      if (adapter === 'local') continue;
      if (adapter === 'google') {
        this.grantGoogle(role, capability);
        continue;
      }
      if (adapter === 'fashn') {
        this.grantFashn(role);
        if (capability === 'video') this.grantRawClipWrites(role, 'A finished FASHN clip is stored under the raw-clip folder of a job chosen at run time (user and job ids).');
        continue;
      }
      if (capability === 'video') this.grantLuma(role);
      else this.grantStability(role, STABILITY_SERVICES[capability as 'edit' | 'upscale']);
      this.grantMarketplaceSubscription(role);
    }
  }

  /**
   * The daily model check (lib/constructs/model-check.ts): the settings, the key secrets of the providers in use (it
   * asks Google's models.get and FASHN's credits with them) and GetFoundationModel on the Bedrock models in use.
   */
  grantModelCheck(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    const role = fn.role;
    if (!role) throw new Error(`Function ${fn.node.path} has no role to grant provider access to`);
    for (const [name, value] of Object.entries(this.environment)) fn.addEnvironment(name, value);
    const secrets = [this.googleSecret, this.fashnSecret].filter((secret): secret is ISecret => secret !== undefined);
    if (secrets.length > 0) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secrets.map((secret) => `${secret.secretArn}-??????`) }));
    }
    const { providers } = this.props;
    const models = bedrockModelsFor({ edit: providers.edit === 'bedrock', upscale: providers.upscale === 'bedrock', video: providers.video === 'bedrock' });
    if (models.length > 0) {
      // A `us.` id is a cross-region inference profile: the check asks for its foundation model in BEDROCK_REGION.
      const resources = [...new Set(models.map((id) => this.foundationModelArn(this.bedrockRegion, id.replace(/^us\./, ''))))];
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:GetFoundationModel'], resources }));
    }
  }

  private marketplaceGranted = new WeakSet<IRole>();

  /** The first call of a Marketplace model subscribes the account as the caller (see the header). */
  private grantMarketplaceSubscription(role: IRole): void {
    if (this.marketplaceGranted.has(role)) return;
    this.marketplaceGranted.add(role);
    const { providers } = this.props;
    const stabilityOnBedrock = providers.edit === 'bedrock' || providers.upscale === 'bedrock';
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['aws-marketplace:Subscribe'],
        resources: ['*'],
        ...(stabilityOnBedrock ? {} : { conditions: { 'ForAnyValue:StringEquals': { 'aws-marketplace:ProductId': [LUMA_RAY2_MARKETPLACE_PRODUCT_ID] } } }),
      }),
    );
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['aws-marketplace:Unsubscribe', 'aws-marketplace:ViewSubscriptions'], resources: ['*'] }));
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'AWS Marketplace subscription actions have no resource type; Bedrock needs them on the caller to subscribe the account to a third-party model on its first call (Subscribe is limited by product id where the model publishes one).',
    });
  }

  private grantFashn(role: IRole): void {
    if (!this.fashnSecret) throw new Error('The fashn image adapter has no API key secret');
    // A secret's ARN ends in '-' and six random characters that a secret known by name does not tell.
    const secretArn = `${this.fashnSecret.secretArn}-??????`;
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }));
  }

  private grantGoogle(role: IRole, capability: ProviderCapability): void {
    if (!this.googleSecret) throw new Error('The google adapters have no API key secret');
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [`${this.googleSecret.secretArn}-??????`] }));
    if (capability === 'video') this.grantRawClipWrites(role, 'The Omni check stores each clip it downloads from the Gemini API under the raw-clip folder of a job chosen at run time (user and job ids).');
  }

  /** A status check that downloads a finished clip (Gemini Omni, FASHN) stores it under its raw-clip key. */
  private grantRawClipWrites(role: IRole, reason: string): void {
    const clips = this.props.videoOutputBucket.arnForObjects(RAW_CLIPS);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [clips] }));
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceName(this, clips)}]`,
      reason,
    });
  }

  private grantStability(role: IRole, services: (keyof StabilityModelIds)[]): void {
    const resources = services.flatMap((service) => {
      const modelId = DEFAULT_STABILITY_MODEL_IDS[service];
      if (!modelId.startsWith(US_PROFILE_PREFIX)) return [this.foundationModelArn(this.bedrockRegion, modelId)];
      const foundationModel = modelId.slice(US_PROFILE_PREFIX.length);
      return [
        Stack.of(this).formatArn({ service: 'bedrock', region: this.bedrockRegion, resource: 'inference-profile', resourceName: modelId }),
        ...STABILITY_PROFILE_REGIONS.map((region) => this.foundationModelArn(region, foundationModel)),
      ];
    });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
  }

  private grantLuma(role: IRole): void {
    const stack = Stack.of(this);
    const bucket = this.props.videoOutputBucket;
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [this.foundationModelArn(this.bedrockRegion, LUMA_RAY2_MODEL_ID)] }),
    );
    const invocations = stack.formatArn({ service: 'bedrock', region: this.bedrockRegion, resource: 'async-invoke', resourceName: '*' });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:StartAsyncInvoke', 'bedrock:GetAsyncInvoke'], resources: [invocations] }));
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [bucket.arnForObjects(RAW_CLIPS)] }));
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [RAW_CLIPS] } } }),
    );

    const validations = Validations.of(role);
    validations.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceName(this, invocations)}]`,
      reason: 'Bedrock names each asynchronous invocation (Luma Ray2 video clip) when it starts; the grant is this account\'s invocations in the Bedrock region, to start and read them.',
    });
    validations.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResourceName(this, bucket.arnForObjects(RAW_CLIPS))}]`,
      reason: 'Bedrock writes each Luma Ray2 clip with the caller\'s permissions into a folder it names per invocation, under the raw-clip folder of a job chosen at run time (user and job ids).',
    });
  }

  private foundationModelArn(region: string, modelId: string): string {
    return Stack.of(this).formatArn({ service: 'bedrock', region, account: '', resource: 'foundation-model', resourceName: modelId });
  }
}
