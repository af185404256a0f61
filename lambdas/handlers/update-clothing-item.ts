import { updateClothingItemRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { updateClothingItem } from '../domain/clothing.js';

export const handler = route(updateClothingItemRoute, ({ caller, params, body }) =>
  updateClothingItem(caller.userId, params.id ?? '', body),
);
