import { getProfileRoute } from '../contracts/api.js';
import { route } from '../core/http.js';
import { ensureProfile } from '../domain/credits.js';

/** The caller's profile; the first authenticated call of a new user creates it with the sign-up credits. */
export const handler = route(getProfileRoute, ({ caller }) => ensureProfile(caller));
