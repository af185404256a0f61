import { createModelUploadUrlRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { createModelUpload } from '../domain/models/models.js';

export const handler = route(createModelUploadUrlRoute, ({ caller, body }) => createModelUpload(caller.userId, body));
