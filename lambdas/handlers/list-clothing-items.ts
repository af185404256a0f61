import { listClothingItemsRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { listClothingItems } from '../domain/clothing.js';

export const handler = route(listClothingItemsRoute, async ({ caller, query }) => ({
  items: await listClothingItems(caller.userId, query.active === 'true'),
}));
