import { listProductMatchesRoute, ShopDomain } from '../contracts/shopify.js';
import { notFound } from '../core/errors.js';
import { route } from '../core/http.js';
import { productMatches } from '../domain/shopify/views.js';

export const handler = route(listProductMatchesRoute, async ({ caller, params }) => {
  const shop = ShopDomain.safeParse(params.shop);
  if (!shop.success) throw notFound('This shop is not connected.');
  return { items: await productMatches(caller.userId, shop.data) };
});
