import { getPackshotCutoutRoute } from '../contracts/packshots.js';
import { route } from '../core/http.js';
import { packshotCutout } from '../domain/marketplace/refine.js';

export const handler = route(getPackshotCutoutRoute, ({ caller, params }) => packshotCutout(caller.userId, params.id ?? ''));
