import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { getGenerationView } from '../domain/generation/service.js';

export const handler = userRoute({}, ({ caller, params }) => getGenerationView(caller.userId, params.id ?? ''));
