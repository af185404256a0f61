// The public API's pieces that need no twin: the OpenAPI document (valid OpenAPI 3.1, every /v1 route, the same zod
// schemas as the handlers) and the key format. That every user route runs the caller gate is held by the bundles
// (test/infra/nag.test.ts) and by the twin's answers (test/integration/account-deleted.test.ts and the key tests).
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../lambdas/contracts/api-keys.js';
import { buildOpenApiDocument } from '../../lambdas/contracts/openapi.js';
import { generateApiKey, keyFromHeaders } from '../../lambdas/domain/api-keys.js';
import { ROUTES, publicApiRoutes } from '../../lambdas/routes.js';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument(ROUTES) as { openapi: string; paths: Record<string, Record<string, any>> };

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every /v1 route and nothing else, each authenticated by the key header', () => {
    const listed = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(publicApiRoutes().map((route) => `${route.method} /v1${route.path}`).sort());
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) expect(operation.security).toEqual([{ apiKey: [] }]);
    }
  });

  it('describes each route with the zod schemas its handler validates with, and spending routes with Idempotency-Key', () => {
    for (const route of publicApiRoutes()) {
      const { contract } = route;
      const operation = document.paths[`/v1${route.path}`]![route.method.toLowerCase()];
      const header = operation.parameters?.find((parameter: { in: string }) => parameter.in === 'header');
      expect(Boolean(header), route.handler).toBe(Boolean(contract.idempotent));
    }
    const generate = document.paths['/v1/generate-ai-image']!.post;
    expect(generate.requestBody.content['application/json'].schema.properties.prompt).toBeDefined();
    // A saved model names the person wherever a model is described.
    expect(generate.requestBody.content['application/json'].schema.properties.modelId).toBeDefined();
    expect(document.paths['/v1/generate-batch']!.post.requestBody.content['application/json'].schema.properties.modelId).toBeDefined();
    expect(Object.keys(document.paths['/v1/models']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/v1/models/{id}']!).sort()).toEqual(['delete', 'patch']);
  });
});

describe('API keys', () => {
  it('are ml_ + 32 base62 characters, all different', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are read from x-api-key or Authorization: Bearer ml_…, never from another bearer token', () => {
    expect(keyFromHeaders({ 'x-api-key': 'ml_abc' })).toBe('ml_abc');
    expect(keyFromHeaders({ Authorization: 'Bearer ml_abc' })).toBe('ml_abc');
    expect(keyFromHeaders({ authorization: 'Bearer eyJhbGciOi' })).toBeUndefined();
  });

});
