import { createSupportTicketRoute } from '../contracts/support.js';
import { route } from '../core/http.js';
import { createTicket } from '../domain/support/tickets.js';

export const handler = route(createSupportTicketRoute, ({ caller, body }) => createTicket(caller, body));
