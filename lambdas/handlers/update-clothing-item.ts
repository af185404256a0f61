import '../domain/caller-gate.js';
import { UpdateClothingItemRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { updateClothingItem } from '../domain/clothing.js';

export const handler = userRoute({ body: UpdateClothingItemRequest }, ({ caller, params, body }) =>
  updateClothingItem(caller.userId, params.id ?? '', body),
);
