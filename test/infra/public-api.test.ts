// The public API in the template: /v1 routes beside the Cognito ones, on the same functions, behind the API-key
// Lambda authorizer (simple responses, cached per x-api-key for at most a minute); the apiKeys table and its hash
// index; the pepper secret, readable only by the functions that hash keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { API_KEY_AUTH_CACHE_SECONDS } from '../../lambdas/contracts/api-keys.js';
import { ROUTES, publicApiRoutes, type RouteDefinition } from '../../lambdas/routes.js';
import { resourcesOfType, synthModelLoop, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthModelLoop({ nag: false });
});
afterAll(() => s?.dispose());

const logicalId = (element: unknown) => s.stack.getLogicalId(element as CfnElement);
const refOf = (value: unknown) => (value as { Ref?: string } | undefined)?.Ref;
/** The HTTP API's REQUEST authorizers (the WebSocket API has one of its own). */
const keyAuthorizers = () =>
  resourcesOfType(s.json, 'AWS::ApiGatewayV2::Authorizer').filter(
    ([, r]) => r.Properties!.AuthorizerType === 'REQUEST' && refOf(r.Properties!.ApiId) === logicalId(s.stack.httpApi.api.node.defaultChild),
  );
const routesByKey = () => new Map(resourcesOfType(s.json, 'AWS::ApiGatewayV2::Route').map(([, r]) => [String(r.Properties!.RouteKey), r]));

describe('public API (/v1)', () => {
  it('has a Lambda REQUEST authorizer with simple responses, keyed by x-api-key and cached at most 60 s', () => {
    const lambdaAuthorizers = keyAuthorizers();
    expect(lambdaAuthorizers).toHaveLength(1);
    const props = lambdaAuthorizers[0]![1].Properties!;
    expect(props.IdentitySource).toEqual(['$request.header.x-api-key']);
    expect(props.EnableSimpleResponses).toBe(true);
    expect(props.AuthorizerPayloadFormatVersion).toBe('2.0');
    expect(props.AuthorizerResultTtlInSeconds).toBe(API_KEY_AUTH_CACHE_SECONDS);
    expect(props.AuthorizerResultTtlInSeconds).toBeLessThanOrEqual(60);
    expect(JSON.stringify(props.AuthorizerUri)).toContain(logicalId(s.stack.httpApi.apiKeyAuthorizer.node.defaultChild));
  });

  it('puts the authorizer on every /v1 route, each invoking the same function as its Cognito twin', () => {
    const [authorizerId] = keyAuthorizers()[0]!;
    const byKey = routesByKey();
    const publicRoutes = publicApiRoutes();
    expect(publicRoutes.length).toBeGreaterThanOrEqual(19);
    for (const route of publicRoutes) {
      const label = `${route.method} /v1${route.path}`;
      const v1 = byKey.get(label);
      expect(v1, label).toBeDefined();
      expect(v1!.Properties!.AuthorizationType, label).toBe('CUSTOM');
      expect(refOf(v1!.Properties!.AuthorizerId), label).toBe(authorizerId);
      const cognito = byKey.get(`${route.method} ${route.path}`)!;
      expect(v1!.Properties!.Target, label).toEqual(cognito.Properties!.Target);
    }
    // No other /v1 route carries a key's authority: the only other one is the public OpenAPI document.
    const others = [...byKey.keys()].filter((key) => key.includes(' /v1/') && !publicRoutes.some((route) => key === `${route.method} /v1${route.path}`));
    expect(others).toEqual(['GET /v1/openapi.json']);
    expect(byKey.get('GET /v1/openapi.json')!.Properties!.AuthorizationType).toBe('NONE');
    // The key routes are Cognito only.
    for (const route of (ROUTES as readonly RouteDefinition[]).filter((entry) => entry.path.startsWith('/api-keys'))) {
      expect(route.publicApi, route.path).toBeUndefined();
      expect(byKey.get(`${route.method} ${route.path}`)!.Properties!.AuthorizationType).toBe('JWT');
    }
  });

  it('creates the apiKeys table with its hash index', () => {
    const table = s.json.Resources[logicalId(s.stack.data.tables.apiKeys.node.defaultChild)]!;
    expect(table.Properties!.KeySchema).toEqual([
      { AttributeName: 'user_id', KeyType: 'HASH' },
      { AttributeName: 'id', KeyType: 'RANGE' },
    ]);
    expect(table.Properties!.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({ IndexName: 'by_hash', KeySchema: [{ AttributeName: 'key_hash', KeyType: 'HASH' }] }),
    ]);
  });

  it('lets only the authorizer and the key-creating function read the pepper', () => {
    const [secretId] = resourcesOfType(s.json, 'AWS::SecretsManager::Secret').find(([id]) => id.includes('ApiKeyPepper'))!;
    const readers = resourcesOfType(s.json, 'AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties!.PolicyDocument).includes(`"${secretId}"`))
      .flatMap(([, policy]) => policy.Properties!.Roles.map((role: unknown) => refOf(role)));
    const roleOf = (fn: { role?: unknown }) => logicalId((fn.role as { node: { defaultChild: unknown } }).node.defaultChild);
    expect(readers.sort()).toEqual([roleOf(s.stack.httpApi.apiKeyAuthorizer), roleOf(s.stack.httpApi.functions['create-api-key'])].sort());
  });
});
