import { createGenerationUploadUrlRoute } from '../contracts/generations.js';
import { route } from '../core/http.js';
import { createGenerationUpload } from '../domain/images/source-uploads.js';

export const handler = route(createGenerationUploadUrlRoute, ({ caller, body }) => createGenerationUpload(caller.userId, body));
