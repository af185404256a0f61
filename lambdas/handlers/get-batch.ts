import { getBatchRoute } from '../contracts/batch.js';
import { route } from '../core/http.js';
import { getBatchView } from '../domain/batch/service.js';

export const handler = route(getBatchRoute, ({ caller, params }) => getBatchView(caller.userId, params.id ?? ''));
