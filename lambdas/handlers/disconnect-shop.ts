import { disconnectShopRoute, ShopDomain } from '../contracts/shopify.js';
import { notFound } from '../core/errors.js';
import { route } from '../core/http.js';
import { disconnect } from '../domain/shopify/connect.js';

export const handler = route(disconnectShopRoute, async ({ caller, params }) => {
  const shop = ShopDomain.safeParse(params.shop);
  if (!shop.success) throw notFound('This shop is not connected.');
  await disconnect(caller.userId, shop.data);
  return { disconnected: true as const };
});
