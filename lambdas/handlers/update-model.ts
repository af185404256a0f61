import { updateModelRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { updateModel } from '../domain/models/models.js';

export const handler = route(updateModelRoute, ({ caller, params, body }) => updateModel(caller.userId, params.id ?? '', body));
