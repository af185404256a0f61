import { revokeApiKeyRoute } from '../contracts/api-keys.js';
import { route } from '../core/http.js';
import { revokeKey } from '../domain/api-keys.js';

/** Revokes one of the caller's keys; it stops working once the authorizer's cached answer expires (≤ 30 s). */
export const handler = route(revokeApiKeyRoute, async ({ caller, params }) => revokeKey(caller.userId, params.id ?? ''));
