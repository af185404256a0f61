import { publicRoute } from '../core/http.js';
import { listActiveTiers } from '../data/pricing-repo.js';

export const handler = publicRoute({}, async () => ({ items: await listActiveTiers() }));
