import { deleteClothingItemRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { deleteClothingItem } from '../domain/clothing.js';

export const handler = route(deleteClothingItemRoute, ({ caller, params }) => deleteClothingItem(caller.userId, params.id ?? ''));
