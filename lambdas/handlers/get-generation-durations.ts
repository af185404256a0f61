import { getGenerationDurationsRoute } from '../contracts/api.js';
import { route } from '../core/http.js';
import { recentDurations } from '../domain/generation/durations.js';

/** The median time of the caller's recent images and videos, for the screens' "usually ready in about …". */
export const handler = route(getGenerationDurationsRoute, ({ caller }) => recentDurations(caller.userId));
