import { updateModelRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { changeModel } from '../domain/models/create.js';

export const handler = route(updateModelRoute, ({ caller, params, body }) => changeModel(caller.userId, params.id ?? '', body));
