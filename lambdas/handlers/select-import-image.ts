import '../domain/caller-gate.js';
import { SelectImportRequest } from '../contracts/imports.js';
import { userRoute } from '../core/http.js';
import { selectImportImage } from '../domain/imports/service.js';

export const handler = userRoute({ body: SelectImportRequest }, ({ caller, params, body }) => selectImportImage(caller.userId, params.id ?? '', body));
