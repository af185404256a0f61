// Demo requests from the public contact form: a visitor without an account. Counted first, per e-mail address and
// for everyone together (each one conditional update: limits that hold under parallel requests), then stored in the tickets table under the
// visitors' partition (so a request is never lost), then mailed to the support address like a ticket.
import type * as z from 'zod';
import type { ContactRequest } from '../../contracts/contact.js';
import { log } from '../../core/log.js';
import * as repo from '../../data/tickets-repo.js';
import { takeRequest } from '../limits.js';
import { mailTicket } from './mail.js';

/** The partition of the tickets table that holds requests from visitors without an account. */
export const VISITOR_TICKETS_OWNER = 'visitors';

type NewContactRequest = z.output<typeof ContactRequest>;

export async function createContactRequest(request: NewContactRequest, now = () => new Date().toISOString()) {
  await takeRequest(`contact#${request.email.toLowerCase()}`, 'contactRequests');
  await takeRequest('contact#everyone', 'allContactRequests');
  const created_at = now();
  const lines = [`Demo request from ${request.name}${request.company ? `, ${request.company}` : ''}`, '', request.message];
  const ticket: repo.TicketRecord = {
    user_id: VISITOR_TICKETS_OWNER,
    id: repo.newTicketId(created_at),
    email: request.email,
    subject: `Demo request: ${request.company ?? request.name}`,
    message: lines.join('\n'),
    status: 'open',
    created_at,
  };
  await repo.putTicket(ticket);
  try {
    await mailTicket(ticket);
  } catch (error) {
    log.error('demo request stored but not mailed', { ticketId: ticket.id, error });
  }
  return { id: ticket.id, created_at };
}
