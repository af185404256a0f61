import '../domain/caller-gate.js';
import { SHORT_LIST_LIMIT } from '../contracts/catalog.js';
import { userRoute } from '../core/http.js';
import { listLedger } from '../data/credits-repo.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listLedger(caller.userId, SHORT_LIST_LIMIT) }));
