import { refinePackshotCutoutRoute } from '../contracts/packshots.js';
import { route } from '../core/http.js';
import { refinePackshotCutout } from '../domain/marketplace/refine.js';

export const handler = route(refinePackshotCutoutRoute, ({ caller, params, body }) => refinePackshotCutout(caller.userId, params.id ?? '', body.mask));
