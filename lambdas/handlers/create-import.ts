import '../domain/caller-gate.js';
import { CreateImportRequest } from '../contracts/imports.js';
import { Reply, userRoute } from '../core/http.js';
import { createImport } from '../domain/imports/service.js';

export const handler = userRoute({ body: CreateImportRequest }, async ({ caller, body }) => new Reply(201, await createImport(caller.userId, body.url)));
