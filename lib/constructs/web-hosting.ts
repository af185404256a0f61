// The web app in the cloud: the Vite build in a private S3 bucket, served by CloudFront through origin access control,
// with the security headers (CSP built from the stack's own endpoints, HSTS) and the runtime /config.json written from
// the stack's resources at deploy time.
//
// Client routes: a viewer-request CloudFront Function serves /index.html (the landing page, prerendered into it at
// build time) for / and /app.html (the same page with an empty root) for every other path whose last segment has no
// file extension (/dashboard, /studio/video). Distribution-wide error responses (403/404 → the shell) were not used:
// they would also answer a missing chunk or a missing config.json with the app shell and status 200, so a broken deploy
// would show up as a JavaScript MIME error or an invalid config instead of the real 403/404.
//
// The API: the app calls it same-origin, under /api/* of the distribution (as on the local twin, whose gateway serves
// the API under /api on the app's origin). A viewer-request function strips the /api prefix and the HTTP API's own
// endpoint answers, uncached, with every viewer header but Host (API Gateway needs its own host name). So the API needs
// no CORS for the app, the CSP allows the API as 'self', and nothing of the API depends on the distribution: naming
// the distribution's domain in the API's CORS would be a dependency cycle, since the distribution names the API.
//
// Caching: hashed files under assets/ are immutable for a year; everything else (index.html, config.json, favicon, demo
// images) is revalidated with S3 on every request at the edge and sent to browsers as `no-cache`. Files of earlier
// deploys are kept (no pruning), so a tab opened before a deploy can still load the lazy route chunks it refers to.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  Function as CloudFrontFunction,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { PaymentMode, RuntimeConfig } from '../../lambdas/contracts/api.js';
import { API_PREFIX } from '../../lambdas/contracts/api-keys.js';
import { SIGN_IN_RETURN_PATH } from './auth.js';

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface HostedUi {
  /** Host name of the Cognito hosted UI (prefix.auth.region.amazoncognito.com). */
  domain: string;
  /** Identity provider names as the app client lists them ('Google'). */
  providers: string[];
}

export interface WebHostingProps {
  /** Folder of the built web app (index.html and hashed assets/); default web/dist (`npm run build:web`). */
  webRoot?: string;
  /** URL of the HTTP API's stage: the origin of the distribution's /api/* behaviour (config.json `apiUrl` is /api). */
  apiUrl: string;
  /** URL of the WebSocket API (wss://…), when the stack has one: config.json `websocketUrl`; its origin may connect. */
  websocketUrl?: string;
  userPool: IUserPool;
  userPoolClient: IUserPoolClient;
  /** The hosted UI for social sign-in, when one is configured. */
  hostedUi?: HostedUi;
  /** Buckets the browser talks to directly through presigned URLs: uploads, signed image and video links. */
  dataBuckets: IBucket[];
  /** Where the web bucket's server access logs go. */
  accessLogs?: IBucket;
  /** config.json `payments` (and `testPayments` when 'test'): how the billing page lets people buy credits. */
  payments: PaymentMode;
  /** config.json `shopify`: the stage publishes to Shopify (product thumbnails then come from Shopify's CDN). */
  shopify?: boolean;
  /** config.json `expectedVideoSeconds`: the measured median of the stage's video adapter, when it has one. */
  readonly expectedVideoSeconds?: number;
  /** config.json `expectedUpscaleSeconds`: the measured medians of the stage's upscale adapter, when it has them. */
  readonly expectedUpscaleSeconds?: Readonly<Record<'2k' | '4k' | '8k', number>>;
}

/**
 * Viewer-request rewrite (CloudFront Functions JS 2.0): a path whose last segment has no '.' is a client route; / is
 * the prerendered landing page, any other the app shell.
 */
const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  if (request.uri.lastIndexOf('.') < request.uri.lastIndexOf('/')) request.uri = request.uri === '/' ? '/index.html' : '/app.html';
  return request;
}`;

/** Where the Shopify product thumbnails of the publish dialogs come from. */
const SHOPIFY_CDN = 'https://cdn.shopify.com';

/** Where the app reaches the API on its own origin, as on the local twin (lambdas/contracts/api-keys.ts). */
export const API_PATH = API_PREFIX;

/** Viewer-request rewrite of the /api/* behaviour: the HTTP API's routes have no /api prefix. */
const API_PREFIX_STRIP_CODE = `function handler(event) {
  var request = event.request;
  request.uri = request.uri.slice(${API_PATH.length}) || '/';
  return request;
}`;

const SELF = "'self'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const HSTS_MAX_AGE = Duration.days(730);

export class WebHosting extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<distribution domain>, no trailing slash. */
  readonly url: string;
  /** The API as the app calls it: <url>/api, same-origin. */
  readonly apiUrl: string;
  /** The Content-Security-Policy header value (with tokens). */
  readonly contentSecurityPolicy: string;
  /** What /config.json holds (with tokens). */
  readonly runtimeConfig: RuntimeConfig;
  readonly deployment: BucketDeployment;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);
    const webRoot = resolve(props.webRoot ?? DEFAULT_WEB_ROOT);
    for (const page of ['index.html', 'app.html']) {
      if (!existsSync(join(webRoot, page))) {
        throw new Error(`No built web app at ${webRoot} (${page} is missing): run \`npm run build:web\` before synthesizing.`);
      }
    }
    const { region, urlSuffix } = Stack.of(this);

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: props.accessLogs ? 'web/' : undefined,
      // Only build output lives here; the deployment below empties the bucket when the stack is deleted.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const bucketOrigins = props.dataBuckets.map((bucket) => `https://${bucket.bucketRegionalDomainName}`);
    this.contentSecurityPolicy = contentSecurityPolicy({
      connect: [
        ...(props.websocketUrl ? [originOf(props.websocketUrl)] : []),
        `https://cognito-idp.${region}.${urlSuffix}`,
        ...(props.hostedUi ? [`https://${props.hostedUi.domain}`] : []),
        ...bucketOrigins,
      ],
      media: [...bucketOrigins, ...(props.shopify ? [SHOPIFY_CDN] : [])],
    });
    const securityHeaders = securityHeadersBehavior(this.contentSecurityPolicy);
    const headersWithCaching = (policyId: string, cacheControl: string, comment: string) =>
      new ResponseHeadersPolicy(this, policyId, {
        comment,
        securityHeadersBehavior: securityHeaders,
        customHeadersBehavior: { customHeaders: [{ header: 'Cache-Control', value: cacheControl, override: true }] },
      });

    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const api = apiOrigin(props.apiUrl);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'ModelLoop web app',
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: new CachePolicy(this, 'RevalidatePolicy', {
          comment: 'ModelLoop app shell and config.json: cached at the edge, revalidated with S3 on every request',
          defaultTtl: Duration.seconds(0),
          minTtl: Duration.seconds(0),
          maxTtl: Duration.days(1),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
        }),
        responseHeadersPolicy: headersWithCaching('ShellHeaders', REVALIDATE, 'ModelLoop app shell: security headers, revalidate'),
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'SpaRewrite', {
              comment: 'Client routes (no file extension) get the app shell',
              runtime: FunctionRuntime.JS_2_0,
              code: FunctionCode.fromInline(SPA_REWRITE_CODE),
            }),
          },
        ],
      },
      additionalBehaviors: {
        'assets/*': {
          origin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: headersWithCaching('AssetHeaders', IMMUTABLE, 'ModelLoop hashed assets: security headers, immutable'),
        },
        [`${API_PATH.slice(1)}/*`]: {
          origin: new HttpOrigin(api.domainName, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            ...(api.path ? { originPath: api.path } : {}),
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          // Nothing of the API is cached; the managed policy made for API Gateway origins forwards every viewer header
          // (Authorization included), cookie and query string, and leaves Host to be the API's own.
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: new ResponseHeadersPolicy(this, 'ApiHeaders', {
            comment: 'ModelLoop API under /api: security headers; caching is the API’s own',
            securityHeadersBehavior: securityHeaders,
          }),
          functionAssociations: [
            {
              eventType: FunctionEventType.VIEWER_REQUEST,
              function: new CloudFrontFunction(this, 'ApiPrefix', {
                comment: 'The HTTP API serves /api/<route> as /<route>',
                runtime: FunctionRuntime.JS_2_0,
                code: FunctionCode.fromInline(API_PREFIX_STRIP_CODE),
              }),
            },
          ],
        },
      },
    });
    this.acknowledgeDistributionFindings();
    this.url = `https://${this.distribution.distributionDomainName}`;
    this.apiUrl = `${this.url}${API_PATH}`;

    this.runtimeConfig = {
      apiUrl: this.apiUrl,
      ...(props.websocketUrl ? { websocketUrl: props.websocketUrl } : {}),
      region,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.userPoolClient.userPoolClientId,
      ...(props.hostedUi
        ? { oauth: { ...props.hostedUi, redirectUrl: `${this.url}${SIGN_IN_RETURN_PATH}` } }
        : {}),
      host: 'cloud',
      testPayments: props.payments === 'test',
      payments: props.payments,
      ...(props.shopify ? { shopify: true } : {}),
      ...(props.expectedVideoSeconds === undefined ? {} : { expectedVideoSeconds: props.expectedVideoSeconds }),
      ...(props.expectedUpscaleSeconds === undefined ? {} : { expectedUpscaleSeconds: { ...props.expectedUpscaleSeconds } }),
    };

    // Own role and log group for CDK's deployment function: no managed policy, logs kept a month.
    const deployRole = new Role(this, 'DeployRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const deployLogs = new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    deployLogs.grantWrite(deployRole);
    this.deployment = new BucketDeployment(this, 'Deployment', {
      // config.json comes only from the stack (a stale one in the build folder is left out). Nothing is pruned, so
      // chunks of earlier deploys stay for tabs that still run them; the files are removed with the stack.
      sources: [Source.asset(webRoot, { exclude: ['config.json'] }), Source.jsonData('config.json', this.runtimeConfig)],
      destinationBucket: this.bucket,
      prune: false,
      retainOnDelete: false,
      // The shell behaviour revalidates anyway; the invalidation also clears copies cached before this deploy's policy.
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/app.html', '/config.json'],
      role: deployRole,
      logGroup: deployLogs,
    });
    this.acknowledgeDeploymentFindings(deployRole);
  }

  private acknowledgeDistributionFindings(): void {
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'The product is sold worldwide; there is no country it must not be served in.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'The distribution serves static build files from S3 and passes /api/* through uncached to the HTTP API, which verifies a JWT on every user route, is throttled at its stage and limits each user\'s spending requests itself; its public routes answer the same directly. A WAF web ACL can be added per stage when abuse calls for it.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: 'Legacy CloudFront logs need an ACL-enabled bucket and the stack keeps ACLs disabled on every bucket; the origin bucket has S3 server access logs, and the API has its own access logs.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'No custom domain is configured, so the distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the security policy; viewers are redirected to HTTPS and HSTS is sent.',
      },
    );
  }

  private acknowledgeDeploymentFindings(role: Role): void {
    // CDK's deployment function lives at stack level, one per stack; its runtime and layer are chosen by aws-cdk-lib.
    const stack = Stack.of(this);
    const handler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (handler) {
      Validations.of(handler).acknowledge({
        id: 'AwsSolutions-L1',
        reason: "BucketDeployment's function runs the AWS CLI on a Python runtime that aws-cdk-lib pins and moves with its own upgrades; it cannot be chosen here.",
      });
    }
    // cdk-nag names the asset bucket as synthesized: literal account, region and partition when the stack has an env.
    const literalOr = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const qualifier = stack.synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const assetBucket = `cdk-${qualifier}-assets-${literalOr(stack.account, 'AWS::AccountId')}-${literalOr(stack.region, 'AWS::Region')}`;
    const webBucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnElement);
    const grants: [string, string][] = [
      ['Action::s3:GetObject*', 'Read grants made by BucketDeployment: it reads the staged build from the CDK asset bucket and compares with the web bucket.'],
      ['Action::s3:GetBucket*', 'Read grants made by BucketDeployment (aws s3 sync needs the bucket location and listing of both buckets).'],
      ['Action::s3:List*', 'Read grants made by BucketDeployment (aws s3 sync lists the source and the web bucket).'],
      ['Action::s3:Abort*', 'Write grant on the web bucket only: the sync uploads large files in parts.'],
      ['Action::s3:DeleteObject*', 'Delete grant on the web bucket only: the deployment empties it when the stack is deleted.'],
      [`Resource::<${webBucketId}.Arn>/*`, 'The deployment writes any object of the web bucket, which holds nothing but the build.'],
      [
        `Resource::arn:${literalOr(stack.partition, 'AWS::Partition')}:s3:::${assetBucket}/*`,
        'The staged build is an object of the CDK bootstrap asset bucket whose key is a content hash known only to the assembly; read-only.',
      ],
      ['Resource::*', 'cloudfront:CreateInvalidation/GetInvalidation as granted by BucketDeployment itself; it invalidates only the distribution passed to it (index.html, app.html and config.json).'],
    ];
    for (const [finding, reason] of grants) {
      Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    }
  }
}

/**
 * The origin (scheme://host) of an absolute URL whose scheme and slashes are literal, as in a stage's url. Tokens inside
 * the host are kept: their encoded form never contains a '/'.
 */
function originOf(url: string): string {
  const [scheme, empty, host] = url.split('/');
  if (!scheme?.endsWith(':') || empty !== '' || !host) {
    throw new Error(`Not an absolute URL with a literal scheme and host: ${url}`);
  }
  return `${scheme}//${host}`;
}

/** The host name and stage path (none for $default) of an API stage URL such as https://id.execute-api.region.domain/. */
function apiOrigin(url: string): { domainName: string; path: string } {
  const host = originOf(url).split('//')[1]!;
  const path = url.split('/').slice(3).filter(Boolean).join('/');
  return { domainName: host, path: path ? `/${path}` : '' };
}

interface CspSources {
  /** Where scripts may fetch, post and open sockets besides the app's own origin. */
  connect: string[];
  /** Where images and videos may come from besides the app, data: and blob: URLs. */
  media: string[];
}

/**
 * The app's CSP. Scripts only from the app's own files. Styles also allow 'unsafe-inline': sonner and Radix's scroll
 * lock (react-remove-scroll) insert <style> elements at run time, with content that is computed (no fixed hash) and
 * no nonce on a static host. React's style={{…}} props are set through the CSSOM and would not need it.
 */
function contentSecurityPolicy(sources: CspSources): string {
  const media = [SELF, 'data:', 'blob:', ...sources.media];
  const directives: [string, string[]][] = [
    ['default-src', [SELF]],
    ['script-src', [SELF]],
    ['style-src', [SELF, "'unsafe-inline'"]],
    ['img-src', media],
    ['media-src', media],
    ['connect-src', [SELF, ...sources.connect]],
    ['frame-ancestors', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', [SELF]],
    ['form-action', [SELF]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

function securityHeadersBehavior(csp: string): ResponseSecurityHeadersBehavior {
  return {
    contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
    strictTransportSecurity: { accessControlMaxAge: HSTS_MAX_AGE, includeSubdomains: true, preload: true, override: true },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
  };
}
