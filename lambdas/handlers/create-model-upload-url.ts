import { CreateUploadUrlRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { createModelUpload } from '../domain/models/models.js';

export const handler = userRoute({ body: CreateUploadUrlRequest }, ({ caller, body }) => createModelUpload(caller.userId, body));
