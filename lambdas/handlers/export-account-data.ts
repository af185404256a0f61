import { exportAccountDataRoute } from '../contracts/account.js';
import { route } from '../core/http.js';
import { exportAccountData } from '../domain/account/export.js';

export const handler = route(exportAccountDataRoute, ({ caller }) => exportAccountData(caller.userId));
