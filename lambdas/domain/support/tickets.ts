// Support tickets: stored first (so a ticket is never lost), then mailed to the support address, and the ticket records
// whether the mail went (`mail_status`). A mail that fails is never silent: the ticket says `failed`, the error log
// names it, and the SupportMailFailed metric (Powertools) drives an alarm (lib/constructs/operations.ts).
//
// Each user may open USER_LIMITS.rates.supportTickets tickets a minute, counted by one conditional update before
// anything is stored (429 with Retry-After beyond). The mail replies to the account's own verified address; another
// address given in the form is passed on as a contact, marked unverified.
import type { CreateTicketRequest, Ticket } from '../../contracts/support.js';
import type * as z from 'zod';
import { AppError } from '../../core/errors.js';
import type { Caller } from '../../core/http.js';
import { log } from '../../core/log.js';
import { emitMetrics } from '../../core/metrics.js';
import * as repo from '../../data/tickets-repo.js';
import { takeRequest } from '../limits.js';
import { mailTicket } from './mail.js';

type NewTicket = z.output<typeof CreateTicketRequest>;

const onWire = ({ user_id: _owner, ...ticket }: repo.TicketRecord): Ticket => ticket;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function createTicket(caller: Caller, request: NewTicket, now = () => new Date().toISOString()): Promise<Ticket> {
  // Support answers only an address the account has proven it owns.
  if (!caller.email || !caller.emailVerified) {
    throw new AppError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your account\'s e-mail address first: support replies to it.');
  }
  await takeRequest(caller.userId, 'supportTickets');
  const created_at = now();
  const ticket: repo.TicketRecord = {
    user_id: caller.userId,
    id: repo.newTicketId(created_at),
    email: caller.email,
    ...(sameAddress(request.email, caller.email) ? {} : { contact_email: request.email }),
    subject: request.subject,
    message: request.message,
    status: 'open',
    mail_status: 'pending',
    created_at,
  };
  await repo.putTicket(ticket);
  try {
    await mailTicket(ticket);
    ticket.mail_status = 'sent';
  } catch (error) {
    ticket.mail_status = 'failed';
    log.error('support ticket stored but not mailed', { ticketId: ticket.id, error });
    emitMetrics({ SupportMailFailed: 1 });
  }
  await repo.setMailStatus(caller.userId, ticket.id, ticket.mail_status);
  return onWire(ticket);
}

export async function listTickets(userId: string): Promise<Ticket[]> {
  return (await repo.listTickets(userId)).map(onWire);
}
