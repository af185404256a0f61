// Shopify's webhooks (public; authenticated by X-Shopify-Hmac-Sha256 over the raw body, which the JSON wrapper of the
// other routes would parse first, so it answers on its own). 401 for a bad HMAC, as Shopify requires.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { log, withLogKeys } from '../core/log.js';
import { receiveShopifyWebhook } from '../domain/shopify/shop-webhooks.js';

export const handler = (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> =>
  withLogKeys({ requestId: event.requestContext?.requestId, route: event.routeKey }, async () => {
    try {
      return await receiveShopifyWebhook(event);
    } catch (error) {
      // Shopify delivers again after a 5xx.
      log.error('shopify webhook failed', { error });
      return { statusCode: 500, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }) };
    }
  });
