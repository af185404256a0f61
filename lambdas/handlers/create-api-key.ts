import '../domain/caller-gate.js';
import { CreateApiKeyRequest } from '../contracts/api-keys.js';
import { Reply, userRoute } from '../core/http.js';
import { createApiKey } from '../domain/api-keys.js';

/** A new key for the signed-in user (Cognito only: a key can't make keys); its secret is in this answer only. */
export const handler = userRoute({ body: CreateApiKeyRequest }, async ({ caller, body }) => new Reply(201, await createApiKey(caller.userId, body.name)));
