import { downloadBatchRoute } from '../contracts/batch.js';
import { route } from '../core/http.js';
import { batchDownload } from '../domain/batch/archive.js';

export const handler = route(downloadBatchRoute, ({ caller, params }) => batchDownload(caller.userId, params.id ?? ''));
