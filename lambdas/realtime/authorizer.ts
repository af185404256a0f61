// The $connect authorizer: the Cognito ID token arrives as the `token` query parameter (browsers cannot set headers
// on a WebSocket). A valid token allows this one connect with the user id as context; anything else is refused with
// 401 — and the reason is logged, never the token.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { WEBSOCKET_TOKEN_PARAM } from '../contracts/api.js';
import type { IdTokenVerifier } from '../core/jwt.js';
import { log } from '../core/log.js';
import { UNAUTHORIZED, type ConnectAuthorizerContext } from './events.js';

export async function authorizeConnect(
  event: APIGatewayRequestAuthorizerEvent,
  verifier: IdTokenVerifier,
): Promise<APIGatewayAuthorizerResult & { context: ConnectAuthorizerContext }> {
  const token = event.queryStringParameters?.[WEBSOCKET_TOKEN_PARAM];
  if (!token) throw new Error(UNAUTHORIZED);
  let userId: string;
  try {
    userId = (await verifier.verify(token)).sub ?? '';
  } catch (error) {
    log.warn('websocket connect refused', { reason: error instanceof Error ? error.name : 'invalid token' });
    throw new Error(UNAUTHORIZED);
  }
  if (!userId) throw new Error(UNAUTHORIZED);
  return {
    principalId: userId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }],
    },
    context: { userId },
  };
}
