// The public API's OpenAPI 3.1 document, generated from the route contracts the handlers are built from (each says
// whether the API serves it): there is no hand-written copy of a schema to drift.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { ApiErrorBody, IdempotencyKey } from './api.js';
import { API_KEY_HEADER, PUBLIC_API_PREFIX } from './api-keys.js';
import { USER_LIMITS } from './catalog.js';
import type { RouteContract } from './route.js';

/** A route as the document needs it: its contract, and its handler's name (the operationId). */
export interface OpenApiRoute {
  handler: string;
  contract: RouteContract;
}

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

const retryAfter = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } };

/** Every status the route answers (an integration test checks real answers against them). */
function responsesOf(contract: RouteContract): Record<string, unknown> {
  const conflicts = [
    contract.idempotent && 'The Idempotency-Key was used for another request (IDEMPOTENCY_KEY_REUSED), or the request was cut off and its credits given back (REQUEST_EXPIRED).',
    contract.errors?.[409],
  ].filter(Boolean);
  return {
    [contract.status ?? 200]: {
      description: contract.status === 201 ? 'Created' : 'OK',
      content: { 'application/json': { schema: contract.response ? schemaOf(contract.response, 'output') : { type: 'object' } } },
    },
    '400': errorResponse('The request is not valid (code VALIDATION_ERROR, IDEMPOTENCY_KEY_REQUIRED, …).'),
    '401': errorResponse('No key, or a malformed, unknown or revoked key (API_KEY_MALFORMED, API_KEY_INVALID, API_KEY_REVOKED), or a key of an account being deleted or deleted (ACCOUNT_DELETED).'),
    ...(contract.idempotent ? { '402': errorResponse('Not enough credits (INSUFFICIENT_CREDITS).') } : {}),
    ...(contract.errors?.[403] ? { '403': errorResponse(contract.errors[403]) } : {}),
    '404': errorResponse('Not found, or not yours.'),
    ...(conflicts.length ? { '409': errorResponse(conflicts.join(' ')) } : {}),
    ...(contract.errors?.[413] ? { '413': errorResponse(contract.errors[413]) } : {}),
    '429': {
      ...errorResponse(
        contract.idempotent
          ? 'Too many requests for this key (RATE_LIMITED), or too much of your work is running (TOO_MANY_RUNNING); wait the Retry-After seconds.'
          : 'Too many requests for this key (RATE_LIMITED); wait the Retry-After seconds.',
      ),
      headers: retryAfter,
    },
    '500': errorResponse('Something went wrong on our side (INTERNAL_ERROR). Please try again.'),
    ...(contract.idempotent
      ? { '503': { ...errorResponse('Busy, or the work could not be started; nothing was charged (LEDGER_BUSY, GENERATION_NOT_STARTED). Retry after Retry-After.'), headers: retryAfter } }
      : {}),
  };
}

/**
 * The document for the routes the table marks `publicApi`. The default server is relative to the document itself
 * (served at <base>/v1/openapi.json, so `..` is <base>/): right on every deployment and on the twin.
 */
export function buildOpenApiDocument(routes: readonly OpenApiRoute[], serverUrl = '..'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { handler, contract } of routes.filter((entry) => entry.contract.publicApi)) {
    const parameters: unknown[] = [...contract.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (contract.query) {
      const query = schemaOf(contract.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    if (contract.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        description: 'A new unique value (e.g. a UUID) per operation. A retry with the same key and body answers the first result and charges once; the same key with another body or route answers 409.',
        schema: schemaOf(IdempotencyKey, 'input'),
      });
    }
    const operation: Record<string, unknown> = {
      operationId: handler.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()),
      summary: contract.summary,
      security: [{ apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(contract.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(contract.body, 'input') } } } } : {}),
      responses: responsesOf(contract),
    };
    const path = `${PUBLIC_API_PREFIX}${contract.path}`;
    paths[path] = { ...paths[path], [contract.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ModelLoop API',
      version: '1.0.0',
      description:
        'On-model photos, edits, upscales, batches and looping product videos. Authenticate with an API key from the API screen in the `x-api-key` header. ' +
        `Each key may make ${USER_LIMITS.rates.apiKey.limit} requests per ${USER_LIMITS.rates.apiKey.windowSeconds} seconds by default (429 with Retry-After beyond).`,
    },
    servers: [{ url: serverUrl }],
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      schemas: { Error: schemaOf(ApiErrorBody, 'output') },
    },
  };
}
