import { createClothingUploadUrlRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { createClothingUpload } from '../domain/clothing.js';

export const handler = route(createClothingUploadUrlRoute, ({ caller, body }) => createClothingUpload(caller.userId, body));
