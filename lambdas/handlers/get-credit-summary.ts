import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { summarizeLedger } from '../data/credits-repo.js';

/** Bought, spent and refunded credits over the caller's whole ledger. */
export const handler = userRoute({}, ({ caller }) => summarizeLedger(caller.userId));
