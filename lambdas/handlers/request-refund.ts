import '../domain/caller-gate.js';
// A refund of unused credits from a card purchase (within the refund window).
import { RefundRequest } from '../contracts/api.js';
import { userRoute } from '../core/http.js';
import { requestRefund } from '../domain/payments/refunds.js';

export const handler = userRoute({ body: RefundRequest }, ({ body, caller }) => requestRefund(caller.userId, body.transactionId));
