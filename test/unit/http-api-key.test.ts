// The http wrapper with a caller of the public API: the API-key authorizer's context names the user as a JWT's
// claims do; a refused key is 401 with its stable code; a key call passes the installed gate or fails closed.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lambdas/core/errors.js';
import { defineRoute } from '../../lambdas/contracts/route.js';
import { installCallerGate, route, type ApiKeyAuthorizerContext } from '../../lambdas/core/http.js';

const whoAmI = route(defineRoute({ method: 'GET', path: '/whoami', auth: 'user', summary: 'A probe' }), async ({ caller }) => ({ userId: caller.userId, apiKeyId: caller.apiKeyId ?? null }));

function event(authorizer: { lambda: ApiKeyAuthorizerContext } | { jwt: { claims: Record<string, string> } }): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /v1/profile',
    rawPath: '/v1/profile',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { requestId: 'r-1', http: { method: 'GET', path: '/v1/profile' }, authorizer } as unknown as APIGatewayProxyEventV2['requestContext'],
  };
}

async function call(input: APIGatewayProxyEventV2) {
  const result = (await whoAmI(input)) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null'), headers: result.headers };
}

describe('a user route called with an API key', () => {
  it('fails closed (500, nothing run) when no gate is installed, for a key and for a token', async () => {
    expect((await call(event({ lambda: { userId: 'user-1', keyId: 'key_1' } }))).status).toBe(500);
    expect((await call(event({ jwt: { claims: { sub: 'user-1', token_use: 'id' } } }))).status).toBe(500);
  });

  it("reads the key's owner from the authorizer's context, as it reads a JWT's sub, and runs the gate first", async () => {
    const gated: (string | null)[] = [];
    installCallerGate(async (caller) => {
      gated.push(caller.apiKeyId ?? null);
      if (caller.apiKeyId === 'key_busy') throw new AppError(429, 'RATE_LIMITED', 'Too many requests.', { 'retry-after': '1' });
    });
    expect(await call(event({ lambda: { userId: 'user-1', keyId: 'key_1' } }))).toMatchObject({ status: 200, body: { userId: 'user-1', apiKeyId: 'key_1' } });
    expect(await call(event({ jwt: { claims: { sub: 'user-1', token_use: 'id' } } }))).toMatchObject({ status: 200, body: { userId: 'user-1', apiKeyId: null } });
    expect(gated).toEqual(['key_1', null]);
    expect(await call(event({ lambda: { userId: 'user-1', keyId: 'key_busy' } }))).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
  });

  it('answers a refused key with 401 and its stable code, and an empty context with 401', async () => {
    for (const code of ['API_KEY_MALFORMED', 'API_KEY_INVALID', 'API_KEY_REVOKED', 'ACCOUNT_DELETED']) {
      expect(await call(event({ lambda: { denied: code } }))).toMatchObject({ status: 401, body: { code } });
    }
    expect(await call(event({ lambda: {} }))).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });
});
