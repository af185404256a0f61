// POST /shops/connect: Shopify's install screen for the shop, with the OAuth state cookie (domain/shopify/connect.ts).
import { connectShopRoute } from '../contracts/shopify.js';
import { route } from '../core/http.js';
import { beginConnect } from '../domain/shopify/connect.js';

export const handler = route(connectShopRoute, ({ caller, body }) => beginConnect(caller.userId, body.shop));
