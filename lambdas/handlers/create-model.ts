import { createModelRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { createModel } from '../domain/models/create.js';

export const handler = route(createModelRoute, ({ caller, body }) => createModel(caller.userId, body));
