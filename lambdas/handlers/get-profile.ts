import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { ensureProfile } from '../domain/credits.js';

/** The caller's profile; the first authenticated call of a new user creates it with the sign-up credits. */
export const handler = userRoute({}, ({ caller }) => ensureProfile(caller));
