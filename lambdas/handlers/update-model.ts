import { UpdateModelRequest } from '../contracts/models.js';
import { userRoute } from '../core/http.js';
import { updateModel } from '../domain/models/models.js';

export const handler = userRoute({ body: UpdateModelRequest }, ({ caller, params, body }) => updateModel(caller.userId, params.id ?? '', body));
