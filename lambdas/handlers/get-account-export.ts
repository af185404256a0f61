import { getAccountExportRoute } from '../contracts/account.js';
import { route } from '../core/http.js';
import { latestAccountExport } from '../domain/account/export.js';

/** GET /account/export: the latest export, a ready one with its zip signed now. */
export const handler = route(getAccountExportRoute, ({ caller }) => latestAccountExport(caller.userId));
