import { listSupportTicketsRoute } from '../contracts/support.js';
import { route } from '../core/http.js';
import { listTickets } from '../domain/support/tickets.js';

export const handler = route(listSupportTicketsRoute, async ({ caller }) => ({ items: await listTickets(caller.userId) }));
