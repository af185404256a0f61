import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { deleteClothingItem } from '../domain/clothing.js';

export const handler = userRoute({}, ({ caller, params }) => deleteClothingItem(caller.userId, params.id ?? ''));
