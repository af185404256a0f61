import { exportAccountDataRoute } from '../contracts/account.js';
import { route } from '../core/http.js';
import { requestAccountExport } from '../domain/account/export.js';

/** POST /account/export: starts the accountExport workflow and answers 202 before the zip exists. */
export const handler = route(exportAccountDataRoute, ({ caller }) => requestAccountExport(caller));
