import { registerClothingItemRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { registerClothingItem } from '../domain/clothing-registration.js';

export const handler = route(registerClothingItemRoute, ({ caller, body }) => registerClothingItem(caller.userId, body));
