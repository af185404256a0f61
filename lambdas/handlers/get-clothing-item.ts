import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { getClothingItem } from '../domain/clothing.js';

export const handler = userRoute({}, ({ caller, params }) => getClothingItem(caller.userId, params.id ?? ''));
