import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { batchDownload } from '../domain/batch/archive.js';

export const handler = userRoute({}, ({ caller, params }) => batchDownload(caller.userId, params.id ?? ''));
