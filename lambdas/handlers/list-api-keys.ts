import { listApiKeysRoute } from '../contracts/api-keys.js';
import { route } from '../core/http.js';
import { listKeys } from '../domain/api-keys.js';

/** The caller's keys, newest first, never their secrets. */
export const handler = route(listApiKeysRoute, async ({ caller }) => ({ keys: await listKeys(caller.userId) }));
