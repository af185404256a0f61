import '../domain/caller-gate.js';
// The caller's purchases with their receipts, for the billing page.
import { userRoute } from '../core/http.js';
import { listPurchases } from '../domain/payments/receipts.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listPurchases(caller.userId) }));
