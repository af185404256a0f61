import { userRoute } from '../core/http.js';
import { deleteModel } from '../domain/models/models.js';

export const handler = userRoute({}, ({ caller, params }) => deleteModel(caller.userId, params.id ?? ''));
