// Shopify's webhooks (public; authenticated by X-Shopify-Hmac-Sha256 over the raw body, which the JSON wrapper would
// parse first). 401 for a bad HMAC, as Shopify requires; a 5xx makes Shopify deliver again.
import { shopifyWebhookRoute } from '../contracts/shopify.js';
import { rawRoute } from '../core/http.js';
import { receiveShopifyWebhook } from '../domain/shopify/shop-webhooks.js';

export const handler = rawRoute(shopifyWebhookRoute, receiveShopifyWebhook);
