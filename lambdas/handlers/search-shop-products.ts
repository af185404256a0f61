import { searchShopProductsRoute, ShopDomain } from '../contracts/shopify.js';
import { notFound } from '../core/errors.js';
import { route } from '../core/http.js';
import { searchProducts } from '../domain/shopify/products.js';

export const handler = route(searchShopProductsRoute, async ({ caller, params, query }) => {
  const shop = ShopDomain.safeParse(params.shop);
  if (!shop.success) throw notFound('This shop is not connected.');
  return { items: await searchProducts(caller.userId, shop.data, query.query) };
});
