import { CreateUploadUrlRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { createGenerationUpload } from '../domain/images/source-uploads.js';

export const handler = userRoute({ body: CreateUploadUrlRequest }, ({ caller, body }) => createGenerationUpload(caller.userId, body));
