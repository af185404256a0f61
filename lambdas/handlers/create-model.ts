import { CreateModelRequest } from '../contracts/models.js';
import { Reply, userRoute } from '../core/http.js';
import { createModel } from '../domain/models/create.js';

export const handler = userRoute({ body: CreateModelRequest }, async ({ caller, body }) => new Reply(201, await createModel(caller.userId, body)));
