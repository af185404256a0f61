import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { listKeys } from '../domain/api-keys.js';

/** The caller's keys, newest first, never their secrets. */
export const handler = userRoute({}, async ({ caller }) => ({ keys: await listKeys(caller.userId) }));
