import { listPricingTiersRoute } from '../contracts/api.js';
import { route } from '../core/http.js';
import { listActiveTiers } from '../data/pricing-repo.js';

export const handler = route(listPricingTiersRoute, async () => ({ items: await listActiveTiers() }));
