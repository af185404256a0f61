import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { exportAccountData } from '../domain/account/export.js';

export const handler = userRoute({}, ({ caller }) => exportAccountData(caller.userId));
