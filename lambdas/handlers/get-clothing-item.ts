import { getClothingItemRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { getClothingItem } from '../domain/clothing.js';

export const handler = route(getClothingItemRoute, ({ caller, params }) => getClothingItem(caller.userId, params.id ?? ''));
