// Shopify's OAuth redirect (public; checked by its HMAC and the state cookie, not by a token): it answers a redirect
// back to Settings, never JSON.
import { shopifyCallbackRoute } from '../contracts/shopify.js';
import { rawRoute } from '../core/http.js';
import { completeConnect } from '../domain/shopify/connect.js';

export const handler = rawRoute(shopifyCallbackRoute, completeConnect);
