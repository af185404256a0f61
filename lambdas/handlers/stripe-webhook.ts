// Stripe's webhook endpoint (public; authenticated by the Stripe-Signature over the raw body, not by a token). It reads
// the raw body, which the JSON wrapper of the other routes would parse first, so it answers on its own.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { handleStripeWebhook } from '../domain/payments/webhook.js';
import { withLogKeys } from '../core/log.js';

export const handler = (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> =>
  withLogKeys({ requestId: event.requestContext?.requestId, route: event.routeKey }, () => handleStripeWebhook(event));
