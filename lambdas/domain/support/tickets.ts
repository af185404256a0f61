// Support tickets: stored first (so a ticket is never lost), then mailed to the support address. A mail that fails is
// logged as an error (the API's error alarm) and the ticket stays listed as open.
import type { CreateTicketRequest, Ticket } from '../../contracts/support.js';
import type * as z from 'zod';
import { log } from '../../core/log.js';
import * as repo from '../../data/tickets-repo.js';
import { mailTicket } from './mail.js';

type NewTicket = z.output<typeof CreateTicketRequest>;

const onWire = ({ user_id: _owner, ...ticket }: repo.TicketRecord): Ticket => ticket;

export async function createTicket(userId: string, request: NewTicket, now = () => new Date().toISOString()): Promise<Ticket> {
  const created_at = now();
  const ticket: repo.TicketRecord = { user_id: userId, id: repo.newTicketId(created_at), ...request, status: 'open', created_at };
  await repo.putTicket(ticket);
  try {
    await mailTicket(ticket);
  } catch (error) {
    log.error('support ticket stored but not mailed', { ticketId: ticket.id, error });
  }
  return onWire(ticket);
}

export async function listTickets(userId: string): Promise<Ticket[]> {
  return (await repo.listTickets(userId)).map(onWire);
}
