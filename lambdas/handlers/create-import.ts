import { createImportRoute } from '../contracts/imports.js';
import { route } from '../core/http.js';
import { createImport } from '../domain/imports/service.js';

export const handler = route(createImportRoute, ({ caller, body }) => createImport(caller.userId, body.url));
