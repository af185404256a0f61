import '../domain/caller-gate.js';
import { CreateUploadUrlRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { createClothingUpload } from '../domain/clothing.js';

export const handler = userRoute({ body: CreateUploadUrlRequest }, ({ caller, body }) => createClothingUpload(caller.userId, body));
