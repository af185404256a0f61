import { getGenerationRoute } from '../contracts/generations.js';
import { route } from '../core/http.js';
import { getGenerationView } from '../domain/generation/service.js';

export const handler = route(getGenerationRoute, ({ caller, params }) => getGenerationView(caller.userId, params.id ?? ''));
