import { listCreditTransactionsRoute } from '../contracts/api.js';
import { SHORT_LIST_LIMIT } from '../contracts/catalog.js';
import { route } from '../core/http.js';
import { listLedger } from '../data/credits-repo.js';

export const handler = route(listCreditTransactionsRoute, async ({ caller }) => ({ items: await listLedger(caller.userId, SHORT_LIST_LIMIT) }));
