import { CreateTicketRequest } from '../contracts/support.js';
import { Reply, userRoute } from '../core/http.js';
import { createTicket } from '../domain/support/tickets.js';

export const handler = userRoute({ body: CreateTicketRequest }, async ({ caller, body }) => new Reply(201, await createTicket(caller.userId, body)));
