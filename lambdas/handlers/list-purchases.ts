// The caller's purchases with their receipts, for the billing page.
import { listPurchasesRoute } from '../contracts/payments.js';
import { route } from '../core/http.js';
import { listPurchases } from '../domain/payments/receipts.js';

export const handler = route(listPurchasesRoute, async ({ caller }) => ({ items: await listPurchases(caller.userId) }));
