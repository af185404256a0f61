import { createApiKeyRoute } from '../contracts/api-keys.js';
import { route } from '../core/http.js';
import { createApiKey } from '../domain/api-keys.js';

/** A new key for the signed-in user (Cognito only: a key can't make keys); its secret is in this answer only. */
export const handler = route(createApiKeyRoute, ({ caller, body }) => createApiKey(caller.userId, body.name));
