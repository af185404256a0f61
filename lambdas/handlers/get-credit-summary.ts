import { getCreditSummaryRoute } from '../contracts/api.js';
import { route } from '../core/http.js';
import { summarizeLedger } from '../data/credits-repo.js';

/** Bought, spent and refunded credits over the caller's whole ledger. */
export const handler = route(getCreditSummaryRoute, ({ caller }) => summarizeLedger(caller.userId));
