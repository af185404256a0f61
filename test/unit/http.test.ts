// The one HTTP wrapper: what a caller sees for good and bad requests.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { PurchaseCreditsRequest } from '../../lambdas/contracts/api.js';
import { AppError, InsufficientCreditsError } from '../../lambdas/core/errors.js';
import { defineRoute } from '../../lambdas/contracts/route.js';
import { installCallerGate, PATH_PARAM_MAX_LENGTH, Reply, route, type HttpHandler } from '../../lambdas/core/http.js';

// The domain's gate reads DynamoDB; here every caller is let through (test/unit/http-api-key.test.ts covers the gate).
installCallerGate(async () => undefined);

function event(overrides: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /things',
    rawPath: '/things',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { requestId: 'r-1', http: { method: 'POST', path: '/things' } } as APIGatewayProxyEventV2['requestContext'],
    ...overrides,
  };
}

/** A route contract for the probes: the parts a test names, on POST /things. */
const things = <const S extends { auth: 'user' | 'public'; body?: z.ZodType; query?: z.ZodType; idempotent?: boolean; status?: 201 | 202 }>(spec: S) =>
  defineRoute({ method: 'POST', path: '/things', summary: 'A probe', ...spec });

async function call(handler: HttpHandler, input: APIGatewayProxyEventV2) {
  const result = (await handler(input)) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
}

describe('route: a public route', () => {
  const echo = route(things({ auth: 'public', body: PurchaseCreditsRequest }), async ({ body }) => ({ got: body.credits }));

  it('answers 200 with the handler result as JSON', async () => {
    expect(await call(echo, event({ body: '{"credits":170}' }))).toEqual({ status: 200, body: { got: 170 } });
  });

  it('reads base64 bodies', async () => {
    const body = Buffer.from('{"credits":3}').toString('base64');
    expect(await call(echo, event({ body, isBase64Encoded: true }))).toEqual({ status: 200, body: { got: 3 } });
  });

  it('answers a path id longer than any id of ours with 404, without running the handler', async () => {
    const run = vi.fn(async () => ({}));
    const probe = route(things({ auth: 'public' }), run);
    const long = await call(probe, event({ pathParameters: { id: 'a'.repeat(PATH_PARAM_MAX_LENGTH + 1) } }));
    expect(long).toEqual({ status: 404, body: { code: 'NOT_FOUND', error: 'Not found' } });
    expect(run).not.toHaveBeenCalled();
    expect((await call(probe, event({ pathParameters: { id: 'a'.repeat(PATH_PARAM_MAX_LENGTH) } }))).status).toBe(200);
  });

  it('answers invalid bodies with 400, a stable code and the schema message', async () => {
    expect(await call(echo, event({ body: '{"credits":0}' }))).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', error: 'The minimum is 1 credit' } });
    expect(await call(echo, event({ body: '{}' }))).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', error: 'Enter the number of credits to buy' } });
    expect(await call(echo, event({ body: 'nope' }))).toEqual({ status: 400, body: { code: 'INVALID_JSON', error: 'The request body is not valid JSON.' } });
  });

  it('requires a well-formed Idempotency-Key on spending routes', async () => {
    const spend = route(things({ auth: 'public', idempotent: true }), async ({ idempotencyKey }) => ({ idempotencyKey }));
    expect((await call(spend, event())).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect((await call(spend, event({ headers: { 'idempotency-key': 'short' } }))).body.code).toBe('VALIDATION_ERROR');
    expect(await call(spend, event({ headers: { 'Idempotency-Key': 'abcdef-123456' } }))).toEqual({ status: 200, body: { idempotencyKey: 'abcdef-123456' } });
  });

  it('answers typed errors with their status and code', async () => {
    const broke = route(things({ auth: 'public' }), async () => {
      throw new InsufficientCreditsError(3, 1);
    });
    expect(await call(broke, event())).toEqual({
      status: 402,
      body: { code: 'INSUFFICIENT_CREDITS', error: 'Insufficient credits: you need 3 credits but only have 1.' },
    });
  });

  it('hides unexpected errors behind a generic 500 and logs them', async () => {
    // Powertools' logger writes error lines to stderr (its own console; the global one in POWERTOOLS_DEV mode).
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => Boolean(written.push(String(chunk))));
    const consoleSpy = vi.spyOn(console, 'error').mockImplementation((...args) => void written.push(args.join(' ')));
    const crash = route(things({ auth: 'public' }), async () => {
      throw new Error('ResourceNotFoundException: table modelloop-ledger-XYZ not found');
    });
    const answer = await call(crash, event());
    expect(answer).toEqual({ status: 500, body: { code: 'INTERNAL_ERROR', error: 'Something went wrong on our side. Please try again.' } });
    expect(JSON.stringify(answer)).not.toContain('modelloop-ledger');
    spy.mockRestore();
    consoleSpy.mockRestore();
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 'ERROR', message: 'unhandled error', requestId: 'r-1', route: 'POST /things' });
    expect(written[0]).toContain('modelloop-ledger-XYZ');
  });

  it("answers with the contract's success status", async () => {
    const created = route(things({ auth: 'public', status: 201 }), async () => ({ id: 'x' }));
    expect(await call(created, event())).toEqual({ status: 201, body: { id: 'x' } });
    const refused = route(things({ auth: 'public', status: 201 }), async () => {
      throw new AppError(409, 'TAKEN', 'Already there.');
    });
    expect(await call(refused, event())).toEqual({ status: 409, body: { code: 'TAKEN', error: 'Already there.' } });
  });

  it('lets a handler choose another status', async () => {
    const created = route(things({ auth: 'public' }), async () => new Reply(201, { id: 'x' }));
    expect(await call(created, event())).toEqual({ status: 201, body: { id: 'x' } });
  });

  it('parses the query string with its schema', async () => {
    const listed = route(things({ auth: 'public', query: z.object({ limit: z.coerce.number().int().max(100) }) }), async ({ query }) => query);
    expect(await call(listed, event({ queryStringParameters: { limit: '20' } }))).toEqual({ status: 200, body: { limit: 20 } });
    expect((await call(listed, event({ queryStringParameters: { limit: '500' } }))).status).toBe(400);
  });
});

describe('route: a user route', () => {
  it('answers 401 when the authorizer verified no caller, without running the handler', async () => {
    const run = vi.fn();
    const handler = route(things({ auth: 'user' }), run);
    expect(await call(handler, event())).toEqual({ status: 401, body: { code: 'UNAUTHORIZED', error: 'Please sign in to continue.' } });
    expect(run).not.toHaveBeenCalled();
  });

  it('is an AppError so every route answers it the same way', () => {
    expect(new InsufficientCreditsError(1, 0)).toBeInstanceOf(AppError);
  });
});

describe('route: who the caller of a user route is', () => {
  const whoAmI = route(things({ auth: 'user' }), async ({ caller }) => ({ userId: caller.userId }));
  const withClaims = (claims: Record<string, unknown>) =>
    event({ requestContext: { requestId: 'r-2', http: { method: 'GET', path: '/me' }, authorizer: { jwt: { claims, scopes: [] } } } as never });

  it('takes the user from a verified ID token', async () => {
    expect(await call(whoAmI, withClaims({ sub: 'user-1', token_use: 'id', auth_time: 1700000000 }))).toEqual({ status: 200, body: { userId: 'user-1' } });
  });

  it('refuses an access token and a token that does not say what it is, on both hosts alike', async () => {
    for (const claims of [{ sub: 'user-1', token_use: 'access' }, { sub: 'user-1' }]) {
      expect(await call(whoAmI, withClaims(claims))).toEqual({ status: 401, body: { code: 'UNAUTHORIZED', error: 'Please sign in to continue.' } });
    }
  });

  it('sends an error’s headers with its answer (Retry-After of a 429)', async () => {
    const limited = route(things({ auth: 'user' }), async () => {
      throw new AppError(429, 'RATE_LIMITED', 'Too many requests.', { 'retry-after': '7' });
    });
    const result = (await limited(withClaims({ sub: 'user-1', token_use: 'id' }))) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['retry-after']).toBe('7');
  });
});
