import { deleteModelRoute } from '../contracts/models.js';
import { route } from '../core/http.js';
import { deleteModel } from '../domain/models/models.js';

export const handler = route(deleteModelRoute, ({ caller, params }) => deleteModel(caller.userId, params.id ?? ''));
