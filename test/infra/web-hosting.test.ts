// The web app's hosting: a private bucket behind CloudFront (origin access control), client routes, caching, security
// headers with a CSP made of the stack's own endpoints, the API same-origin under /api, the upload buckets' CORS for
// the distribution's domain, and the config.json written at deploy time.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { expectedUpscaleSeconds } from '../../lambdas/contracts/expected-wait.js';
import { RuntimeConfig } from '../../lambdas/contracts/api.js';
import { WebHosting } from '../../lib/constructs/web-hosting.js';
import { nagFindings, resourcesOfType, synthModelLoop, type CfnResource, type CfnTemplate, type Synthesized } from './synth.js';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
const GOOGLE = { stage: 'staging', webOrigins: 'https://studio.example.com', googleClientId: 'client-123.apps.googleusercontent.com', testPayments: true };
const CACHING_OPTIMIZED_ID = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const CACHING_DISABLED_ID = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER_ID = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
/** CloudFront's limit on a Content-Security-Policy value in a response headers policy. */
const CSP_MAX_LENGTH = 1783;

let plain: Synthesized;
let google: Synthesized;

beforeAll(() => {
  plain = synthModelLoop({ nag: false });
  google = synthModelLoop({ nag: false, context: GOOGLE });
});
afterAll(() => {
  plain?.dispose();
  google?.dispose();
});

// --- reading the template -------------------------------------------------------------------------------------------

const idOf = (s: { stack: Stack }, construct: { node: { defaultChild?: unknown } }): string =>
  s.stack.getLogicalId(construct.node.defaultChild as CfnElement);
const only = (json: CfnTemplate, type: string): CfnResource => {
  const found = resourcesOfType(json, type);
  expect(found, type).toHaveLength(1);
  return found[0]![1];
};

/** Stand-ins for deploy-time values: Ref X → 'x', GetAtt X.Attr → 'x-attr' (lower case, valid in host names). */
const placeholder = (name: string): string => name.replace(/::/g, '-').replace(/\./g, '-').toLowerCase();
type Resolver = (name: string) => string;

/** Evaluates the intrinsic functions that the stack uses in strings, with a value for every Ref and GetAtt. */
function evaluate(value: unknown, resolve: Resolver = placeholder): unknown {
  if (Array.isArray(value)) return value.map((item) => evaluate(item, resolve));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [key, arg] = entries[0] ?? [];
  if (entries.length === 1 && key === 'Ref') return resolve(arg as string);
  if (entries.length === 1 && key === 'Fn::GetAtt') return resolve((arg as string[]).join('.'));
  if (entries.length === 1 && key === 'Fn::Join') {
    const [separator, parts] = arg as [string, unknown[]];
    return (evaluate(parts, resolve) as string[]).join(separator);
  }
  if (entries.length === 1 && key === 'Fn::Sub') {
    return (arg as string).replace(/\$\{([^}]+)\}/g, (_, name: string) => resolve(name));
  }
  if (entries.length === 1 && key?.startsWith('Fn::')) throw new Error(`No evaluator for ${key}`);
  return Object.fromEntries(entries.map(([k, v]) => [k, evaluate(v, resolve)]));
}
const text = (value: unknown, resolve?: Resolver): string => {
  const result = evaluate(value, resolve);
  if (typeof result !== 'string') throw new Error(`Not a string: ${JSON.stringify(value)}`);
  return result;
};

/** CSP directives by name, each with its sources. */
function parseCsp(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

/** The WebSocket URL the stack passes to the web hosting, with placeholders; none before the realtime construct. */
const websocket = (s: Synthesized): string[] => {
  const url = s.stack.web.runtimeConfig.websocketUrl;
  return url ? [text(s.stack.resolve(url))] : [];
};
const distribution = (s: Synthesized) => only(s.json, 'AWS::CloudFront::Distribution').Properties!.DistributionConfig;
const headersPolicy = (s: Synthesized, id: string) =>
  s.json.Resources[id]!.Properties!.ResponseHeadersPolicyConfig as Record<string, any>;
const behaviors = (s: Synthesized) => {
  const config = distribution(s);
  return [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])] as Record<string, any>[];
};
const cspOf = (s: Synthesized, resolve?: Resolver): string => {
  const policyId = distribution(s).DefaultCacheBehavior.ResponseHeadersPolicyId.Ref as string;
  return text(headersPolicy(s, policyId).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, resolve);
};

interface Deployed {
  props: Record<string, any>;
  config: Record<string, unknown>;
  /** Staged files of the web build source, relative to its root. */
  webFiles: string[];
}

/** The BucketDeployment: its properties, the config.json it writes (markers substituted) and the web files it copies. */
function deployed(s: { json: CfnTemplate; assembly: CloudAssembly }, resolve: Resolver = placeholder): Deployed {
  const props = only(s.json, 'Custom::CDKBucketDeployment').Properties!;
  const stagedDir = (index: number) =>
    join(s.assembly.directory, `asset.${String(props.SourceObjectKeys[index]).replace(/\.zip$/, '')}`);
  const configIndex = (props.SourceMarkers as Record<string, unknown>[]).findIndex((markers) => Object.keys(markers).length > 0);
  expect(configIndex, 'the source with deploy-time values').toBeGreaterThanOrEqual(0);
  let configText = readFileSync(join(stagedDir(configIndex), 'config.json'), 'utf8');
  for (const [marker, value] of Object.entries(props.SourceMarkers[configIndex] as Record<string, unknown>)) {
    configText = configText.split(marker).join(text(value, resolve));
  }
  const webFiles = readdirSync(stagedDir(configIndex === 0 ? 1 : 0), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(stagedDir(configIndex === 0 ? 1 : 0), join(entry.parentPath, entry.name)))
    .sort();
  return { props, config: JSON.parse(configText) as Record<string, unknown>, webFiles };
}

interface WebOnlyOptions {
  websocketUrl?: string;
  /** Deploy to a known account and region (as `cdk synth` does with credentials); default true. */
  env?: boolean;
  /** Run cdk-nag; findings are read from the report, which is written also when synthesis fails on findings. */
  nag?: boolean;
  modify?: (web: WebHosting) => void;
}

/**
 * A stack with only the web hosting in it (and the user pool and bucket it points at): for the props the ModelLoop
 * stack does not use yet (the WebSocket URL), and for cdk-nag on this construct alone, whatever the rest of the stack.
 */
function synthWebOnly(webRoot: string, { websocketUrl, env = true, nag = false, modify }: WebOnlyOptions = {}) {
  const outdir = mkdtempSync(join(tmpdir(), 'modelloop-cdk-'));
  cleanups.push(() => rmSync(outdir, { recursive: true, force: true }));
  const app = new App({ outdir, context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true } });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const stack = new Stack(app, 'WebOnly', { env: env ? { account: '111111111111', region: 'eu-west-1' } : undefined });
  const userPool = new UserPool(stack, 'Pool');
  const web = new WebHosting(stack, 'Web', {
    webRoot,
    apiUrl: 'https://api1234567.execute-api.eu-west-1.amazonaws.com/',
    websocketUrl,
    userPool,
    userPoolClient: userPool.addClient('Client'),
    hostedUi: { domain: 'modelloop-test.auth.eu-west-1.amazoncognito.com', providers: ['Google'] },
    dataBuckets: [new Bucket(stack, 'Uploads')],
    accessLogs: new Bucket(stack, 'Logs'),
    payments: 'off',
  });
  modify?.(web);
  let assembly: CloudAssembly | undefined;
  try {
    assembly = app.synth();
  } catch (error) {
    if (!nag) throw error;
  }
  /** Findings on the web hosting and on the deployment function CDK adds for it; the fixtures around are not ours. */
  const webFindings = () =>
    nagFindings(outdir).filter((finding) => / at WebOnly\/(Web\/|Custom::CDKBucketDeployment)/.test(finding));
  const json = assembly?.getStackArtifact(stack.artifactId).template as CfnTemplate;
  return { stack, web, json, assembly: assembly!, webFindings };
}
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

// --- tests ----------------------------------------------------------------------------------------------------------

describe('web bucket', () => {
  it('is private, encrypted and logged into the access log bucket', () => {
    const bucket = plain.json.Resources[idOf(plain, plain.stack.web.bucket)]!.Properties!;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(bucket.WebsiteConfiguration).toBeUndefined();
    expect(bucket.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: idOf(plain, plain.stack.storage.accessLogs) },
      LogFilePrefix: 'web/',
    });
  });

  it('lets only this distribution read objects, over TLS', () => {
    const bucketId = idOf(plain, plain.stack.web.bucket);
    const distributionId = idOf(plain, plain.stack.web.distribution);
    const [, policy] = resourcesOfType(plain.json, 'AWS::S3::BucketPolicy').find(([, p]) => p.Properties!.Bucket.Ref === bucketId)!;
    const statements = policy.Properties!.PolicyDocument.Statement as Record<string, any>[];
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } });
    expect(text(allows[0]!.Resource)).toBe(`${placeholder(`${bucketId}.Arn`)}/*`);
    expect(Object.keys(allows[0]!.Condition)).toEqual(['StringEquals']);
    expect(text(allows[0]!.Condition.StringEquals['AWS:SourceArn'])).toBe(
      `arn:aws-partition:cloudfront::aws-accountid:distribution/${placeholder(distributionId)}`,
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    for (const statement of allows) expect(JSON.stringify(statement.Principal)).not.toContain('"*"');
  });
});

describe('distribution', () => {
  it('reads the bucket through origin access control (no OAI, no website endpoint)', () => {
    const [origin, ...others] = distribution(plain).Origins as Record<string, any>[];
    // The other origin is the HTTP API (below), reached over HTTPS as a custom origin.
    expect(others.map((other) => other.CustomOriginConfig?.OriginProtocolPolicy)).toEqual(['https-only']);
    expect(origin!.DomainName).toEqual({ 'Fn::GetAtt': [idOf(plain, plain.stack.web.bucket), 'RegionalDomainName'] });
    expect(origin!.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    const oacId = origin!.OriginAccessControlId['Fn::GetAtt'][0] as string;
    expect(plain.json.Resources[oacId]!.Properties!.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    plain.template.resourceCountIs('AWS::CloudFront::CloudFrontOriginAccessIdentity', 0);
  });

  it('redirects HTTP to HTTPS for the app, refuses HTTP for the API, speaks HTTP/2 and HTTP/3 and serves index.html at the root', () => {
    const config = distribution(plain);
    expect(config.HttpVersion).toBe('http2and3');
    expect(config.DefaultRootObject).toBe('index.html');
    for (const behavior of behaviors(plain)) {
      // A redirected POST would arrive as a GET; the app always calls the API over HTTPS.
      expect(behavior.ViewerProtocolPolicy).toBe(behavior.PathPattern === 'api/*' ? 'https-only' : 'redirect-to-https');
    }
  });

  it('serves the app shell for client routes and lets missing files stay errors', () => {
    const config = distribution(plain);
    expect(config.CustomErrorResponses).toBeUndefined();
    const [association, ...more] = config.DefaultCacheBehavior.FunctionAssociations as Record<string, any>[];
    expect(more).toEqual([]);
    expect(association!.EventType).toBe('viewer-request');
    const fn = plain.json.Resources[association!.FunctionARN['Fn::GetAtt'][0] as string]!.Properties!;
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.AutoPublish).toBe(true);

    const handler = new Function(`${fn.FunctionCode as string}\nreturn handler;`)() as (event: unknown) => { uri: string };
    const served = (uri: string) => handler({ request: { uri, headers: {} } }).uri;
    // The root is the prerendered landing page; every other client route gets the empty shell.
    expect(served('/')).toBe('/index.html');
    for (const route of ['/dashboard', '/settings', '/studio/video', '/auth', '/no/such/page']) {
      expect(served(route), route).toBe('/app.html');
    }
    for (const file of ['/index.html', '/app.html', '/config.json', '/favicon.svg', '/assets/index-BO1XnLLW.js', '/demo/jewelry-after.svg']) {
      expect(served(file), file).toBe(file);
    }
    // Hashed assets have their own behaviour, without the rewrite: a stale chunk is a 403/404, not HTML.
    const assets = (config.CacheBehaviors as Record<string, any>[]).find((behavior) => behavior.PathPattern === 'assets/*');
    expect(assets?.FunctionAssociations).toBeUndefined();
  });

  it('caches hashed assets for a year, immutable, and revalidates everything else', () => {
    const config = distribution(plain);
    const cacheControl = (behavior: Record<string, any>) =>
      (headersPolicy(plain, behavior.ResponseHeadersPolicyId.Ref).CustomHeadersConfig.Items as Record<string, unknown>[]).find(
        (header) => header.Header === 'Cache-Control',
      );

    expect((config.CacheBehaviors as Record<string, any>[]).map((behavior) => behavior.PathPattern)).toEqual(['assets/*', 'api/*']);
    const assets = config.CacheBehaviors[0] as Record<string, any>;
    expect(assets.PathPattern).toBe('assets/*');
    expect(assets.CachePolicyId).toBe(CACHING_OPTIMIZED_ID);
    expect(cacheControl(assets)).toEqual({ Header: 'Cache-Control', Value: 'public, max-age=31536000, immutable', Override: true });

    const shell = config.DefaultCacheBehavior as Record<string, any>;
    expect(cacheControl(shell)).toEqual({ Header: 'Cache-Control', Value: 'no-cache', Override: true });
    const policy = plain.json.Resources[shell.CachePolicyId.Ref]!.Properties!.CachePolicyConfig;
    expect(policy).toMatchObject({ DefaultTTL: 0, MinTTL: 0 });
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({ EnableAcceptEncodingGzip: true, EnableAcceptEncodingBrotli: true });
  });

  it('publishes its HTTPS URL as WebUrl', () => {
    expect(text(plain.json.Outputs!.WebUrl!.Value)).toBe(`https://${placeholder(`${idOf(plain, plain.stack.web.distribution)}.DomainName`)}`);
  });
});

describe('security headers', () => {
  it('sends HSTS with preload, nosniff, DENY framing and the referrer policy on every behaviour, with one CSP', () => {
    const csps = new Set<string>();
    for (const behavior of behaviors(google)) {
      const headers = headersPolicy(google, behavior.ResponseHeadersPolicyId.Ref).SecurityHeadersConfig;
      expect(headers.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true });
      expect(headers.ContentTypeOptions).toEqual({ Override: true });
      expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
      expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true });
      expect(headers.ContentSecurityPolicy.Override).toBe(true);
      csps.add(text(headers.ContentSecurityPolicy.ContentSecurityPolicy));
    }
    expect(csps.size).toBe(1);
  });

  it('has a CSP made of exactly the stack’s WebSocket, Cognito and bucket origins (the API is same-origin)', () => {
    const s = google;
    const bucketOrigins = Object.values(s.stack.storage.buckets).map(
      (bucket) => `https://${placeholder(`${idOf(s, bucket)}.RegionalDomainName`)}`,
    );
    const media = ["'self'", 'data:', 'blob:', ...bucketOrigins];
    expect(parseCsp(cspOf(s))).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': media,
      'media-src': media,
      'connect-src': [
        "'self'",
        ...websocket(s).map((url) => new URL(url).origin),
        'https://cognito-idp.aws-region.aws-urlsuffix',
        `https://${placeholder(idOf(s, s.stack.auth.domain!))}.auth.aws-region.amazoncognito.com`,
        ...bucketOrigins,
      ],
      'frame-ancestors': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
    });
  });

  it('allows the hosted UI only when one is configured, and nothing broad anywhere', () => {
    for (const s of [plain, google]) {
      const directives = parseCsp(cspOf(s));
      const connect = directives['connect-src']!;
      expect(connect.some((source) => source.includes('.amazoncognito.com'))).toBe(s === google);
      for (const [name, sources] of Object.entries(directives)) {
        for (const source of sources) {
          expect(source, name).not.toMatch(/\*|^https?:$|^wss?:$|unsafe-eval/);
        }
      }
    }
  });

  it('fits CloudFront’s CSP limit with the longest names AWS can give', () => {
    const longest: Resolver = (name) => {
      if (name === 'AWS::Region') return 'ap-southeast-5';
      if (name === 'AWS::URLSuffix') return 'amazonaws.com.cn';
      if (name.endsWith('.RegionalDomainName')) return `${'b'.repeat(63)}.s3.ap-southeast-5.amazonaws.com.cn`;
      return 'x'.repeat(63);
    };
    expect(cspOf(google, longest).length).toBeLessThanOrEqual(CSP_MAX_LENGTH);
  });
});

describe('config.json', () => {
  const keys = Object.keys(RuntimeConfig.shape);

  it('is written from the stack’s resources with every cloud key of RuntimeConfig', () => {
    const s = google;
    const { config } = deployed(s);
    expect(RuntimeConfig.parse(config)).toEqual(config);
    // cognitoEndpoint is for the local twin only; websocketUrl is there when the stack has a WebSocket API;
    // expectedVideoSeconds and expectedUpscaleSeconds only for an adapter with a measured median (contracts/expected-wait.ts).
    // shopify only on a stage with a Shopify app (this one has none: the key is absent, not false).
    const measured = (key: string) => key === 'expectedVideoSeconds' || key === 'expectedUpscaleSeconds' || key === 'shopify';
    const cloudKeys = keys.filter(
      (key) => key !== 'cognitoEndpoint' && (!measured(key) || key in config) && (key !== 'websocketUrl' || websocket(s).length > 0),
    );
    expect(Object.keys(config).sort()).toEqual(cloudKeys.sort());
    const distributionDomain = placeholder(`${idOf(s, s.stack.web.distribution)}.DomainName`);
    expect(config).toEqual({
      apiUrl: `https://${distributionDomain}/api`,
      ...(websocket(s).length > 0 ? { websocketUrl: websocket(s)[0] } : {}),
      region: 'aws-region',
      userPoolId: placeholder(idOf(s, s.stack.auth.userPool)),
      userPoolClientId: placeholder(idOf(s, s.stack.auth.webClient)),
      oauth: {
        domain: `${placeholder(idOf(s, s.stack.auth.domain!))}.auth.aws-region.amazoncognito.com`,
        providers: ['Google'],
        redirectUrl: `https://${distributionDomain}/auth`,
      },
      host: 'cloud',
      testPayments: true,
      payments: 'test',
      // The stage's upscales are the studio's own engine (cdk.json), whose medians were measured.
      expectedUpscaleSeconds: expectedUpscaleSeconds(s.stack.config.providers.upscale),
    });
    expect(config.expectedUpscaleSeconds).toBeDefined();
  });

  it('has no oauth and no test payments unless configured', () => {
    const { config } = deployed(plain);
    expect(RuntimeConfig.parse(config)).toEqual(config);
    expect(config.oauth).toBeUndefined();
    expect(config.testPayments).toBe(false);
    expect(config.payments).toBe('off');
    expect(config.host).toBe('cloud');
  });

  it('is deployed with the build in one deployment that prunes nothing and invalidates the app shell and config', () => {
    const { props } = deployed(plain);
    expect(props.SourceObjectKeys).toHaveLength(2);
    expect(props.DestinationBucketName).toEqual({ Ref: idOf(plain, plain.stack.web.bucket) });
    expect(props.DestinationBucketKeyPrefix).toBeUndefined();
    expect(props.Prune).toBe(false);
    expect(props.DistributionId).toEqual({ Ref: idOf(plain, plain.stack.web.distribution) });
    expect(props.DistributionPaths).toEqual(['/index.html', '/app.html', '/config.json']);
  });

  it('lets the hosted UI return to the CloudFront URL when Google sign-in is configured', () => {
    const client = only(google.json, 'AWS::Cognito::UserPoolClient').Properties!;
    const webUrl = `https://${placeholder(`${idOf(google, google.stack.web.distribution)}.DomainName`)}`;
    expect(evaluate(client.CallbackURLs)).toEqual(expect.arrayContaining([`${webUrl}/`, `${webUrl}/auth`, 'https://studio.example.com/auth']));
    expect(evaluate(client.LogoutURLs)).toEqual(expect.arrayContaining([`${webUrl}/`, `${webUrl}/auth`]));
    expect(only(plain.json, 'AWS::Cognito::UserPoolClient').Properties!.CallbackURLs).toBeUndefined();
  });
});

describe('the API under /api, same-origin', () => {
  const apiBehavior = (s: Synthesized) => behaviors(s).find((behavior) => behavior.PathPattern === 'api/*')!;

  it('passes /api/* uncached to the HTTP API’s own endpoint, with the viewer’s headers but not its Host', () => {
    for (const s of [plain, google]) {
      const behavior = apiBehavior(s);
      expect(behavior.CachePolicyId).toBe(CACHING_DISABLED_ID);
      expect(behavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER_ID);
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']));
      const origin = (distribution(s).Origins as Record<string, any>[]).find((o) => o.Id === behavior.TargetOriginId)!;
      expect(text(origin.DomainName)).toBe(`${placeholder(idOf(s, s.stack.httpApi.api))}.execute-api.aws-region.aws-urlsuffix`);
      expect(origin.OriginPath ?? '').toBe('');
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    }
  });

  it('strips the /api prefix before the request reaches the API’s routes', () => {
    const [association, ...more] = apiBehavior(plain).FunctionAssociations as Record<string, any>[];
    expect(more).toEqual([]);
    expect(association!.EventType).toBe('viewer-request');
    const fn = plain.json.Resources[association!.FunctionARN['Fn::GetAtt'][0] as string]!.Properties!;
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const handler = new Function(`${fn.FunctionCode as string}\nreturn handler;`)() as (event: unknown) => { uri: string };
    const routed = (uri: string) => handler({ request: { uri, headers: {} } }).uri;
    expect(routed('/api/credits')).toBe('/credits');
    expect(routed('/api/jobs/j-1/cancel')).toBe('/jobs/j-1/cancel');
    expect(routed('/api/v1/pricing-tiers')).toBe('/v1/pricing-tiers');
    expect(routed('/api/')).toBe('/');
  });

  it('needs no CORS on the API without extra origins, on any stage: the app is its own origin', () => {
    const prod = synthModelLoop({ nag: false, context: { stage: 'prod' } });
    try {
      const httpApi = (s: Synthesized) => s.json.Resources[idOf(s, s.stack.httpApi.api)]!.Properties!;
      expect(httpApi(prod).CorsConfiguration).toBeUndefined();
      expect(deployed(prod).config.apiUrl).toBe(`https://${placeholder(`${idOf(prod, prod.stack.web.distribution)}.DomainName`)}/api`);
      // An extra https origin (a custom domain) is allowed by the API's CORS and nothing else.
      expect(httpApi(google).CorsConfiguration.AllowOrigins).toEqual(['https://studio.example.com']);
    } finally {
      prod.dispose();
    }
  });
});

describe('the data buckets’ CORS', () => {
  /** The CORS rules each data bucket gets at deploy time (the PutBucketCors call of its custom resource), by bucket id. */
  const bucketCors = (s: Synthesized) =>
    new Map(
      resourcesOfType(s.json, 'Custom::AWS').flatMap(([, resource]) => {
        const create = JSON.parse(text(resource.Properties!.Create)) as Record<string, any>;
        if (create.action !== 'PutBucketCors') return [];
        expect(JSON.parse(text(resource.Properties!.Update))).toEqual(create);
        return [[create.parameters.Bucket as string, create.parameters.CORSConfiguration.CORSRules as Record<string, any>[]]];
      }),
    );
  const webUrl = (s: Synthesized) => `https://${placeholder(`${idOf(s, s.stack.web.distribution)}.DomainName`)}`;
  /** The data buckets' ids, as the custom resources name them. */
  const bucketIds = (s: Synthesized) => Object.values(s.stack.storage.buckets).map((bucket) => placeholder(idOf(s, bucket))).sort();

  it('allows the stage’s CloudFront URL on every data bucket without any context, on a stage that is not dev', () => {
    const prod = synthModelLoop({ nag: false, context: { stage: 'prod' } });
    try {
      const rules = bucketCors(prod);
      expect(bucketIds(prod).length).toBeGreaterThan(0);
      expect([...rules.keys()].sort()).toEqual(bucketIds(prod));
      for (const [bucket, bucketRules] of rules) {
        expect(bucketRules, bucket).toEqual([
          { AllowedOrigins: [webUrl(prod)], AllowedMethods: ['PUT', 'GET', 'HEAD'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3000 },
        ]);
        expect(bucketRules[0]!.AllowedOrigins.join()).not.toMatch(/\*|http:/);
      }
      // The rules are set at deploy time, not as a bucket property (which would make the distribution depend on itself).
      for (const bucket of Object.values(prod.stack.storage.buckets)) {
        expect(prod.json.Resources[idOf(prod, bucket)]!.Properties!.CorsConfiguration).toBeUndefined();
      }
    } finally {
      prod.dispose();
    }
  });

  it('adds the stage’s extra origins (a custom domain; the local web app on dev) to its CloudFront URL', () => {
    for (const [s, extra] of [
      [google, ['https://studio.example.com']],
      [plain, ['http://localhost:5173', 'http://localhost:4173']],
    ] as const) {
      const rules = bucketCors(s);
      // Every data bucket has its rules (a loop over none would pass).
      expect(bucketIds(s).length).toBeGreaterThan(0);
      expect([...rules.keys()].sort()).toEqual(bucketIds(s));
      for (const bucketRules of rules.values()) expect(bucketRules[0]!.AllowedOrigins).toEqual([...extra, webUrl(s)]);
    }
  });

  it('lets the custom resource put the CORS rules of the data buckets and nothing else', () => {
    const bucketArns = Object.values(google.stack.storage.buckets).map((bucket) => placeholder(`${idOf(google, bucket)}.Arn`));
    const corsStatements = resourcesOfType(google.json, 'AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Record<string, any>[])
      .filter((statement) => JSON.stringify(statement.Action).toLowerCase().includes('putbucketcors'));
    expect(corsStatements.map((statement) => statement.Action)).toEqual(bucketArns.map(() => 's3:PutBucketCORS'));
    expect(corsStatements.map((statement) => text(statement.Resource)).sort()).toEqual(bucketArns.sort());
  });
});

describe('the construct on its own', () => {
  let webRoot: string;
  beforeAll(() => {
    webRoot = mkdtempSync(join(tmpdir(), 'modelloop-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(join(webRoot, 'app.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(join(webRoot, 'assets', 'index-abc123.js'), 'export {};');
    // A config.json left in the build folder (e.g. from a local run) must not reach the cloud.
    writeFileSync(join(webRoot, 'config.json'), '{"host":"local"}');
  });
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

  it('adds the WebSocket origin to connect-src and the URL to config.json when given', () => {
    const wsUrl = 'wss://ws98765432.execute-api.eu-west-1.amazonaws.com/live';
    const s = synthWebOnly(webRoot, { websocketUrl: wsUrl });
    const csp = parseCsp(cspFromJson(s.json));
    expect(csp['connect-src']).toContain('wss://ws98765432.execute-api.eu-west-1.amazonaws.com');
    expect(csp['connect-src']).not.toContain('https://api1234567.execute-api.eu-west-1.amazonaws.com');
    expect(csp['connect-src']).toContain('https://cognito-idp.eu-west-1.aws-urlsuffix');
    expect(csp['connect-src']).toContain('https://modelloop-test.auth.eu-west-1.amazoncognito.com');

    const { config, webFiles } = deployed(s);
    expect(RuntimeConfig.parse(config)).toEqual(config);
    expect(Object.keys(config).sort()).toEqual(Object.keys(RuntimeConfig.shape).filter((key) => key !== 'cognitoEndpoint' && key !== 'expectedVideoSeconds' && key !== 'expectedUpscaleSeconds' && key !== 'shopify').sort());
    expect(config.websocketUrl).toBe(wsUrl);
    expect(config.region).toBe('eu-west-1');
    expect(webFiles).toEqual(['app.html', 'assets/index-abc123.js', 'index.html']);
  });

  it('leaves the WebSocket out when there is none', () => {
    const s = synthWebOnly(webRoot);
    expect(parseCsp(cspFromJson(s.json))['connect-src']!.some((source) => source.startsWith('wss:'))).toBe(false);
  });

  it('refuses a WebSocket URL it cannot take an origin from', () => {
    expect(() => synthWebOnly(webRoot, { websocketUrl: 'live' })).toThrow(/Not an absolute URL/);
  });

  it('stops synthesis with the build command when the web app is not built', () => {
    const missing = join(webRoot, 'not-built');
    expect(() => synthWebOnly(missing)).toThrow(/npm run build:web/);
    expect(() => synthModelLoop({ nag: false, context: { webRoot: missing } })).toThrow(/npm run build:web/);
  });
});

describe('cdk-nag', () => {
  let webRoot: string;
  beforeAll(() => {
    webRoot = mkdtempSync(join(tmpdir(), 'modelloop-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html>');
    writeFileSync(join(webRoot, 'app.html'), '<!doctype html>');
  });
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

  it.each([true, false])('finds nothing unacknowledged in the web hosting and its deployment function (env: %s)', (env) => {
    const s = synthWebOnly(webRoot, { nag: true, env });
    expect(s.webFindings()).toEqual([]);
  });

  it('acknowledges only the deployment role’s known wildcards: a new one is reported', () => {
    const s = synthWebOnly(webRoot, {
      nag: true,
      modify: (web) => web.deployment.handlerRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:Put*'], resources: ['*'] })),
    });
    expect(s.webFindings()).toEqual(['AwsSolutions-IAM5[Action::s3:Put*] at WebOnly/Web/DeployRole/DefaultPolicy/Resource']);
  });
});

function cspFromJson(json: CfnTemplate): string {
  const [, policy] = resourcesOfType(json, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
  return text(policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
}
