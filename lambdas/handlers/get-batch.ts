import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { getBatchView } from '../domain/batch/service.js';

export const handler = userRoute({}, ({ caller, params }) => getBatchView(caller.userId, params.id ?? ''));
