// A refund of unused credits from a card purchase (within the refund window).
import { requestRefundRoute } from '../contracts/payments.js';
import { route } from '../core/http.js';
import { requestRefund } from '../domain/payments/refunds.js';

export const handler = route(requestRefundRoute, ({ body, caller }) => requestRefund(caller.userId, body.transactionId));
