import { userRoute } from '../core/http.js';
import { listTickets } from '../domain/support/tickets.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await listTickets(caller.userId) }));
