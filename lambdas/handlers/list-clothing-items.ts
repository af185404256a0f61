import '../domain/caller-gate.js';
import { ClothingItemsQuery } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { listClothingItems } from '../domain/clothing.js';

export const handler = userRoute({ query: ClothingItemsQuery }, async ({ caller, query }) => ({
  items: await listClothingItems(caller.userId, query.active === 'true'),
}));
