// The synthesized stack against the shared definitions: tables, buckets, user pool, routes and their authorizers,
// functions, grants and the pricing seed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsSharp } from '../../lib/native-modules.js';
import { pascalCase } from '../../lib/constructs/names.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { FACE_REFERENCE_TIER, PRICING_TIER_SEED } from '../../lambdas/contracts/catalog.js';
import { BUCKETS, TABLES, bucketEnvName, tableEnvName, type TableDefinition, type TableName } from '../../lambdas/data/tables.js';
import { CORS, ROUTES, publicApiRoutes, routeTables, type RouteDefinition } from '../../lambdas/routes.js';
import { cdkPath, resourcesOfType, synthModelLoop, type CfnResource, type CfnTemplate, type Synthesized } from './synth.js';

const routes: readonly RouteDefinition[] = ROUTES;
const tableEntries = Object.entries(TABLES) as [TableName, TableDefinition][];
// CDK's own functions: the AwsCustomResource provider and the BucketDeployment handler (web-hosting.test.ts).
const CUSTOM_RESOURCE_PROVIDER_PATH = /\/(AWS679f53fac002430cb0da5b7982bd2287|Custom::CDKBucketDeployment[0-9A-F]+)\//;

let plain: Synthesized;
let google: Synthesized;

beforeAll(() => {
  // cdk-nag has its own tests (nag.test.ts); here a wrong template fails the assertion that describes it.
  plain = synthModelLoop({ nag: false });
  google = synthModelLoop({
    nag: false,
    context: { stage: 'staging', webOrigins: 'https://studio.example.com', googleClientId: 'client-123.apps.googleusercontent.com', testPayments: 'true' },
  });
});
afterAll(() => {
  plain?.dispose();
  google?.dispose();
});

const logicalId = (s: Synthesized, element: unknown): string => s.stack.getLogicalId(element as CfnElement);
const resource = (json: CfnTemplate, id: string): CfnResource => {
  const found = json.Resources[id];
  if (!found) throw new Error(`No resource ${id}`);
  return found;
};
const refOf = (value: unknown): string | undefined => (value as { Ref?: string } | undefined)?.Ref;
const getAttOf = (value: unknown): string | undefined => (value as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];

describe('data', () => {
  it('has one table per table definition', () => {
    plain.template.resourceCountIs('AWS::DynamoDB::Table', tableEntries.length);
  });

  it.each(tableEntries)('table %s follows its definition', (name, definition) => {
    const table = resource(plain.json, logicalId(plain, plain.stack.data.tables[name].node.defaultChild));
    const props = table.Properties!;
    const keySchema = [
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
    ];
    expect(props.KeySchema).toEqual(keySchema);
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(props.SSESpecification).toEqual({ SSEEnabled: true });
    expect(props.StreamSpecification).toEqual(definition.stream ? { StreamViewType: 'NEW_AND_OLD_IMAGES' } : undefined);
    expect(props.TimeToLiveSpecification).toEqual(
      definition.ttlAttribute ? { AttributeName: definition.ttlAttribute, Enabled: true } : undefined,
    );
    expect((props.LocalSecondaryIndexes ?? []).map((index: { IndexName: string }) => index.IndexName)).toEqual(
      (definition.localIndexes ?? []).map((index) => index.name),
    );
    expect((props.GlobalSecondaryIndexes ?? []).map((index: { IndexName: string }) => index.IndexName)).toEqual(
      (definition.globalIndexes ?? []).map((index) => index.name),
    );
  });

  it('keeps data outside the dev stage', () => {
    for (const [, table] of resourcesOfType(plain.json, 'AWS::DynamoDB::Table')) {
      expect((table as { DeletionPolicy?: string }).DeletionPolicy).toBe('Delete');
    }
    for (const [, table] of resourcesOfType(google.json, 'AWS::DynamoDB::Table')) {
      expect((table as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
      expect(table.Properties!.DeletionProtectionEnabled).toBe(true);
    }
  });
});

describe('storage', () => {
  const buckets = () => resourcesOfType(plain.json, 'AWS::S3::Bucket');

  it('has one bucket per BUCKETS entry plus the access log bucket and the web bucket', () => {
    expect(buckets()).toHaveLength(Object.keys(BUCKETS).length + 2);
  });

  it('blocks public access and encrypts every bucket', () => {
    for (const [id, bucket] of buckets()) {
      expect(bucket.Properties!.PublicAccessBlockConfiguration, id).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.Properties!.BucketEncryption, id).toEqual({
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      });
    }
  });

  it('denies every request without TLS on every bucket', () => {
    const policies = resourcesOfType(plain.json, 'AWS::S3::BucketPolicy');
    for (const [id] of buckets()) {
      const policy = policies.find(([, p]) => refOf(p.Properties!.Bucket) === id);
      expect(policy, `bucket policy of ${id}`).toBeDefined();
      expect(policy![1].Properties!.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      );
    }
  });

  // Their CORS rules (the stage's CloudFront URL and its extra origins) are set at deploy time: web-hosting.test.ts.
  it('logs access, aborts stale multipart uploads and removes abandoned uploads', () => {
    const accessLogsId = logicalId(plain, plain.stack.storage.accessLogs.node.defaultChild);
    for (const name of Object.keys(BUCKETS) as (keyof typeof BUCKETS)[]) {
      const bucket = resource(plain.json, logicalId(plain, plain.stack.storage.buckets[name].node.defaultChild));
      expect(refOf(bucket.Properties!.LoggingConfiguration.DestinationBucketName)).toBe(accessLogsId);
      expect(bucket.Properties!.LifecycleConfiguration.Rules).toEqual([
        expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        // Uploads are created tagged upload=pending and tagged kept when a route takes them: the rest go after a day.
        {
          Id: 'abandoned-uploads',
          Status: 'Enabled',
          ExpirationInDays: 1,
          TagFilters: [{ Key: 'upload', Value: 'pending' }],
        },
      ]);
    }
  });
});

describe('auth', () => {
  it('signs in by e-mail with self sign-up, verified e-mail, optional TOTP MFA and e-mail recovery', () => {
    plain.template.resourceCountIs('AWS::Cognito::UserPool', 1);
    plain.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      Policies: {
        PasswordPolicy: Match.objectLike({ MinimumLength: 8, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }),
      },
    });
  });

  it('has one public web client that signs in with SRP only, with 15-minute ID and access tokens', () => {
    plain.template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    plain.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      SupportedIdentityProviders: ['COGNITO'],
      IdTokenValidity: 15,
      AccessTokenValidity: 15,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes' },
    });
  });

  it('adds Google sign-in and the hosted UI only when a Google client id is given', () => {
    plain.template.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    plain.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);

    google.template.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 1);
    google.template.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderType: 'Google',
      ProviderDetails: Match.objectLike({
        client_id: 'client-123.apps.googleusercontent.com',
        client_secret: '{{resolve:secretsmanager:modelloop/google-oauth-client-secret:SecretString:::}}',
      }),
    });
    google.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    google.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: ['COGNITO', 'Google'],
      AllowedOAuthFlows: ['code'],
      CallbackURLs: Match.arrayWith(['https://studio.example.com/auth']),
    });
  });
});

describe('http api', () => {
  // The HTTP API's own resources (the stack also has the realtime WebSocket API, tested in realtime.test.ts).
  const ofHttpApi = (s: Synthesized, type: string) =>
    resourcesOfType(s.json, type).filter(([, r]) => refOf(r.Properties!.ApiId) === logicalId(s, s.stack.httpApi.api.node.defaultChild));
  const routeResources = (s: Synthesized) => ofHttpApi(s, 'AWS::ApiGatewayV2::Route');
  const routeFor = (s: Synthesized, route: RouteDefinition): CfnResource => {
    const matches = routeResources(s).filter(([, r]) => r.Properties!.RouteKey === `${route.method} ${route.path}`);
    expect(matches, `${route.method} ${route.path}`).toHaveLength(1);
    return matches[0]![1];
  };
  /** The function a route invokes, followed through its integration. */
  const functionIdOf = (s: Synthesized, route: CfnResource): string => {
    const target = route.Properties!.Target['Fn::Join'][1] as unknown[];
    const integration = resource(s.json, refOf(target[1])!);
    return getAttOf(integration.Properties!.IntegrationUri)!;
  };

  it('has exactly one route per route table entry (and one more under /v1 for each the public API serves)', () => {
    expect(routeResources(plain)).toHaveLength(routes.length + publicApiRoutes().length);
  });

  it('verifies user pool ID tokens on every user route and on no public route', () => {
    // The other authorizer is the public API's (test/infra/public-api.test.ts).
    const authorizers = ofHttpApi(plain, 'AWS::ApiGatewayV2::Authorizer').filter(([, r]) => r.Properties!.AuthorizerType === 'JWT');
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties!.AuthorizerType).toBe('JWT');
    expect(refOf(authorizer.Properties!.JwtConfiguration.Audience[0])).toBe(
      logicalId(plain, plain.stack.auth.webClient.node.defaultChild),
    );
    expect(JSON.stringify(authorizer.Properties!.JwtConfiguration.Issuer)).toContain('https://cognito-idp.');
    expect(JSON.stringify(authorizer.Properties!.JwtConfiguration.Issuer)).toContain(
      logicalId(plain, plain.stack.auth.userPool.node.defaultChild),
    );

    for (const route of routes) {
      const props = routeFor(plain, route).Properties!;
      if (route.auth === 'user') {
        expect(props.AuthorizationType, `${route.method} ${route.path}`).toBe('JWT');
        expect(refOf(props.AuthorizerId), `${route.method} ${route.path}`).toBe(authorizerId);
      } else {
        expect(props.AuthorizationType, `${route.method} ${route.path}`).toBe('NONE');
        expect(props.AuthorizerId, `${route.method} ${route.path}`).toBeUndefined();
      }
    }
  });

  it('gives each route its own function with exactly the declared table and bucket access', () => {
    const policies = resourcesOfType(plain.json, 'AWS::IAM::Policy');
    const functionIds = new Set<string>();
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const functionId = functionIdOf(plain, routeFor(plain, route));
      functionIds.add(functionId);
      const fn = resource(plain.json, functionId);
      const roleId = getAttOf(fn.Properties!.Role)!;
      const statements = policies
        .filter(([, policy]) => policy.Properties!.Roles.some((role: unknown) => refOf(role) === roleId))
        .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
      const actionsOn = (arnOwnerId: string): string[] =>
        statements
          .filter((statement) => JSON.stringify(statement.Resource).includes(`"${arnOwnerId}"`))
          .flatMap((statement) => [statement.Action].flat());

      const expectedTables: RouteDefinition['tables'] = { ...routeTables(route) };
      for (const [name] of tableEntries) {
        const tableId = logicalId(plain, plain.stack.data.tables[name].node.defaultChild);
        const actions = actionsOn(tableId);
        const env = fn.Properties!.Environment.Variables[tableEnvName(name)];
        const access = expectedTables[name];
        if (!access) {
          expect(actions, `${label}: no access to ${name}`).toEqual([]);
          expect(env, `${label}: no ${tableEnvName(name)}`).toBeUndefined();
          continue;
        }
        expect(refOf(env), `${label}: ${tableEnvName(name)}`).toBe(tableId);
        expect(actions, `${label}: reads ${name}`).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
        if (access === 'write') {
          expect(actions, `${label}: writes ${name}`).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
        } else {
          expect(actions, `${label}: only reads ${name}`).not.toContain('dynamodb:PutItem');
        }
      }
      for (const name of Object.keys(BUCKETS) as (keyof typeof BUCKETS)[]) {
        const bucketId = logicalId(plain, plain.stack.storage.buckets[name].node.defaultChild);
        const access = route.buckets?.[name];
        const actions = actionsOn(bucketId);
        const env = fn.Properties!.Environment.Variables[bucketEnvName(name)];
        if (!access) {
          expect(actions, `${label}: no access to ${name}`).toEqual([]);
          expect(env, `${label}: no ${bucketEnvName(name)}`).toBeUndefined();
          continue;
        }
        expect(refOf(env), `${label}: ${bucketEnvName(name)}`).toBe(bucketId);
        if (access === 'put') {
          // A signer of uploads may only put objects (tagged as pending uploads): no reads, no deletes.
          expect(actions, `${label}: only puts into ${name}`).toEqual(['s3:PutObject', 's3:PutObjectTagging']);
          continue;
        }
        expect(actions).toContain('s3:GetObject');
        if (access === 'write') expect(actions).toContain('s3:PutObject');
        else expect(actions).not.toContain('s3:PutObject');
      }
      expect(fn.Properties!.Timeout, label).toBe(route.timeoutSeconds ?? 10);
    }
    expect(functionIds.size).toBe(routes.length);
  });

  it('lets only the routes that move a balance write the profiles and the ledger', () => {
    const writers = (ROUTES as readonly RouteDefinition[])
      .filter((route) => route.tables?.ledger === 'write' || route.tables?.profiles === 'write')
      .map((route) => route.handler)
      .sort();
    expect(writers).toEqual(
      [
        'cancel-job',
        'edit-ai-image',
        'generate-ai-image',
        'generate-batch',
        'generate-video',
        'get-profile',
        'purchase-credits',
        'request-refund',
        // Marks the profile as being deleted (no balance moves: the deletion workflow moves the ledger).
        'request-account-deletion',
        // Records the export on the profile, which it makes (with its sign-up grant) for an account without one, as
        // get-profile does: no other balance moves.
        'export-account-data',
        'stripe-webhook',
        'upscale-ai-image',
        'generate-packshot',
      ].sort(),
    );
    const spenders = (ROUTES as readonly RouteDefinition[]).filter((route) => route.tables?.limits === 'write').map((route) => route.handler);
    // …and only those, and the product-link imports (which fetch from the internet), count requests per user; cancel
    // ends a video job and gives back its running place (the poller and the list only read); the public contact form
    // counts requests per address given, since its callers have no account.
    expect(spenders.sort()).toEqual(
      [
        'cancel-job',
        'create-contact-request',
        'create-import',
        // Support tickets and exports are rate limited per user (each a mail, or a copy of every file).
        'create-support-ticket',
        'export-account-data',
        'edit-ai-image',
        'generate-ai-image',
        'generate-batch',
        'generate-packshot',
        'generate-video',
        'select-import-image',
        'upscale-ai-image',
      ].sort(),
    );
  });

  it('refuses any origin but https:// outside the dev stage', () => {
    for (const webOrigins of [
      '*',
      'http://localhost:5173',
      'https://studio.example.com,http://studio.example.com',
      ['https://studio.example.com', '*'],
      { prod: ['http://studio.example.com'] },
    ]) {
      const label = JSON.stringify(webOrigins);
      expect(() => synthModelLoop({ nag: false, context: { stage: 'prod', webOrigins } }), label).toThrow(/only https:\/\/ origins/);
    }
  });

  it('takes the origins of the stage being synthesized: cdk.json’s local ones are dev’s alone', () => {
    // cdk.json lists the local web app for dev only; prod synthesizes without naming any origin.
    const prod = synthModelLoop({ nag: false, context: { stage: 'prod' } });
    prod.dispose();
    expect(prod.stack.node.tryGetContext('webOrigins')).toEqual({ dev: ['http://localhost:5173', 'http://localhost:4173'] });
    const perStage = { dev: ['http://localhost:5173'], prod: ['https://studio.example.com'] };
    const named = synthModelLoop({ nag: false, context: { stage: 'prod', webOrigins: perStage } });
    named.dispose();
    named.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://studio.example.com'] }),
    });
  });

  it('answers CORS preflights for the web origins with the shared CORS settings', () => {
    plain.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['http://localhost:5173', 'http://localhost:4173'],
        AllowMethods: [...CORS.allowMethods],
        AllowHeaders: [...CORS.allowHeaders],
        MaxAge: CORS.maxAgeSeconds,
      },
    });
  });

  it('throttles and logs the default stage', () => {
    expect(ofHttpApi(plain, 'AWS::ApiGatewayV2::Stage')).toHaveLength(1);
    plain.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.anyValue() },
    });
  });
});

const HANDLERS_DIR = resolve(import.meta.dirname, '../../lambdas/handlers');

describe('functions', () => {
  const ownFunctions = (s: Synthesized) =>
    resourcesOfType(s.json, 'AWS::Lambda::Function').filter(([, fn]) => !CUSTOM_RESOURCE_PROVIDER_PATH.test(cdkPath(fn)));

  it('run on Node.js 22 on arm64 (x86_64 where they carry the linux-x64 ffmpeg layer or sharp) with their own log group and role', () => {
    const functions = ownFunctions(plain);
    expect(functions.length).toBeGreaterThanOrEqual(routes.length);
    const mediaLayerId = logicalId(plain, plain.stack.mediaLayer.layer.node.defaultChild);
    const sharpFunctions = readdirSync(HANDLERS_DIR)
      .map((file) => file.replace(/\.ts$/, ''))
      .filter((handler) => importsSharp(join(HANDLERS_DIR, `${handler}.ts`)))
      .map((handler) => `/${pascalCase(handler)}Function/`);
    // A workflow task is named by its workflow and state (Workflows/BatchMakePhotoFunction runs generation-process).
    for (const [workflow, definition] of Object.entries(WORKFLOWS)) {
      for (const [state, task] of Object.entries(definition.tasks as Record<string, { handler: string }>)) {
        if (importsSharp(join(HANDLERS_DIR, `${task.handler}.ts`))) sharpFunctions.push(`/${pascalCase(workflow)}${state}Function/`);
      }
    }
    expect(sharpFunctions.length, 'some handlers reach sharp').toBeGreaterThan(0);
    for (const [id, fn] of functions) {
      expect(fn.Properties!.Runtime, id).toBe('nodejs22.x');
      const media = JSON.stringify(fn.Properties!.Layers ?? []).includes(mediaLayerId);
      const sharp = sharpFunctions.some((path) => cdkPath(fn).includes(path));
      expect(fn.Properties!.Architectures, id).toEqual([media || sharp ? 'x86_64' : 'arm64']);
      expect(fn.Properties!.Handler, id).toBe('index.handler');
      expect(refOf(fn.Properties!.LoggingConfig.LogGroup), id).toBeDefined();
    }
    for (const [id, role] of resourcesOfType(plain.json, 'AWS::IAM::Role')) {
      expect(role.Properties!.ManagedPolicyArns, `${id} uses no managed policy`).toBeUndefined();
    }
  });

  it('get the provider selection: by default the one-key Google set and the studio’s own upscale', () => {
    for (const [id, fn] of ownFunctions(plain)) {
      expect(fn.Properties!.Environment.Variables, id).toMatchObject({
        PROVIDER_IMAGE: 'google',
        PROVIDER_EDIT: 'google',
        PROVIDER_UPSCALE: 'local',
        PROVIDER_VIDEO: 'google',
      });
    }
  });

  it('enable the test payment on the purchase function only, and only when asked', () => {
    for (const [id, fn] of ownFunctions(plain)) {
      expect(fn.Properties!.Environment.Variables.PAYMENTS, id).not.toBe('test');
    }
    const purchaseId = logicalId(google, google.stack.httpApi.functions['purchase-credits'].node.defaultChild);
    const purchase = resource(google.json, purchaseId);
    expect(purchase.Properties!.Environment.Variables).toMatchObject({ PAYMENTS: 'test', STAGE: 'staging' });
  });
});

describe('pricing tier seed', () => {
  it('puts every seed tier at the stage\'s configured price (cdk.json pricingFile), into the pricing tiers table', () => {
    const configured = JSON.parse(readFileSync(new URL('../../lib/pricing/google.json', import.meta.url), 'utf8')) as Record<string, number>;
    const tableId = logicalId(plain, plain.stack.data.tables.pricingTiers.node.defaultChild);
    const calls = resourcesOfType(plain.json, 'Custom::AWS').map(([, cr]) => {
      const [, parts] = cr.Properties!.Create['Fn::Join'] as [string, unknown[]];
      const text = parts.map((part) => (typeof part === 'string' ? part : refOf(part) === tableId ? 'PRICING_TABLE' : 'OTHER')).join('');
      return JSON.parse(text) as { action: string; parameters: { TableName: string; Item: Record<string, unknown> } };
    }).filter((call) => call.action !== 'PutBucketCors'); // the buckets' CORS rules: web-hosting.test.ts
    expect(calls).toHaveLength(PRICING_TIER_SEED.length);
    for (const tier of PRICING_TIER_SEED) {
      const call = calls.find((c) => (c.parameters.Item.id as { S: string }).S === tier.id);
      expect(call, tier.id).toBeDefined();
      expect(call!.action).toBe('PutItem');
      expect(call!.parameters.TableName).toBe('PRICING_TABLE');
      // The face-reference tier is sold only where the on-model provider bills a portrait extra (FASHN), not on Google.
      const expected = Object.entries({ ...tier, credits_cost: configured[tier.id] ?? tier.credits_cost, is_active: tier.id !== FACE_REFERENCE_TIER }).map(([key, value]) => [
        key,
        typeof value === 'string' ? { S: value } : typeof value === 'number' ? { N: String(value) } : { BOOL: value },
      ]);
      expect(call!.parameters.Item).toEqual(Object.fromEntries(expected));
    }
  });
});

describe('outputs', () => {
  it('publishes what the web app and scripts need', () => {
    expect(Object.keys(plain.json.Outputs ?? {})).toEqual(
      expect.arrayContaining(['ApiUrl', 'UserPoolId', 'UserPoolClientId', 'Region']),
    );
    expect(Object.keys(google.json.Outputs ?? {})).toContain('AuthDomain');
  });
});
