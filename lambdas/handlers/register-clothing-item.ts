import '../domain/caller-gate.js';
import { RegisterClothingItemRequest } from '../contracts/api.js';
import { Reply, userRoute } from '../core/http.js';
import { registerClothingItem } from '../domain/clothing-registration.js';

export const handler = userRoute({ body: RegisterClothingItemRequest }, async ({ caller, body }) =>
  new Reply(201, await registerClothingItem(caller.userId, body)),
);
