// Shopify's OAuth redirect (public; checked by its HMAC and the state cookie, not by a token). It answers a redirect
// back to Settings, never JSON, so it answers on its own rather than through the JSON wrapper.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { log, withLogKeys } from '../core/log.js';
import { completeConnect } from '../domain/shopify/connect.js';

export const handler = (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> =>
  withLogKeys({ requestId: event.requestContext?.requestId, route: event.routeKey }, async () => {
    try {
      return await completeConnect(event);
    } catch (error) {
      log.error('shopify callback failed', { error });
      return { statusCode: 500, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }) };
    }
  });
