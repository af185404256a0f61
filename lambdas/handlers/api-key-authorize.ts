// The public API's Lambda REQUEST authorizer (HTTP API, payload 2.0, simple responses). It always answers
// isAuthorized: true with a context naming the key's owner or the reason the key is refused; the http wrapper turns
// a refusal into a 401 with a stable code. API Gateway caches the answer per x-api-key value; the twin's gateway
// calls this same handler and caches the same way.
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { ApiKeyAuthorizerContext } from '../core/http.js';
import { authorizeApiKey, keyFromHeaders } from '../domain/api-keys.js';

export const handler = async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<ApiKeyAuthorizerContext>> => ({
  isAuthorized: true,
  context: await authorizeApiKey(keyFromHeaders(event.headers ?? {})),
});
