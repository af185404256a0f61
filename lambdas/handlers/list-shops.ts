import { listShopsRoute } from '../contracts/shopify.js';
import { route } from '../core/http.js';
import { listShops } from '../domain/shopify/views.js';

export const handler = route(listShopsRoute, async ({ caller }) => ({ items: await listShops(caller.userId) }));
