import { selectImportImageRoute } from '../contracts/imports.js';
import { route } from '../core/http.js';
import { selectImportImage } from '../domain/imports/service.js';

export const handler = route(selectImportImageRoute, ({ caller, params, body }) => selectImportImage(caller.userId, params.id ?? '', body));
