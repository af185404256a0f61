// Support tickets: the /support form creates one (stored in the tickets table and e-mailed to the stage's support
// address), and "Your requests" lists them with their status. Shared by the Lambda handlers and the web app.
import * as z from 'zod';
import { defineRoute } from './route.js';

export const SUPPORT_SUBJECT_MAX_LENGTH = 150;
export const SUPPORT_MESSAGE_MAX_LENGTH = 5000;
/** How long the studio promises to take to answer a ticket. */
export const SUPPORT_REPLY_HOURS = 24;

export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const SUPPORT_MESSAGES = {
  email: 'Please enter the e-mail address we should reply to',
  subject: 'Please enter a subject',
  message: 'Please describe how we can help',
  /** The toast after a ticket was created. */
  sent: (email: string) => `Thanks! We'll reply to ${email} within ${SUPPORT_REPLY_HOURS} hours.`,
} as const;

/** POST /support/tickets. */
export const CreateTicketRequest = /* @__PURE__ */ (() => z.object({
  email: z.string({ error: SUPPORT_MESSAGES.email }).trim().email(SUPPORT_MESSAGES.email).max(254, SUPPORT_MESSAGES.email),
  subject: z
    .string({ error: SUPPORT_MESSAGES.subject })
    .trim()
    .min(1, SUPPORT_MESSAGES.subject)
    .max(SUPPORT_SUBJECT_MAX_LENGTH, `The subject can be at most ${SUPPORT_SUBJECT_MAX_LENGTH} characters`),
  message: z
    .string({ error: SUPPORT_MESSAGES.message })
    .trim()
    .min(1, SUPPORT_MESSAGES.message)
    .max(SUPPORT_MESSAGE_MAX_LENGTH, `The message can be at most ${SUPPORT_MESSAGE_MAX_LENGTH} characters`),
}))();
export type CreateTicketRequest = z.input<typeof CreateTicketRequest>;

/** A ticket as the API answers it (and as the tickets table holds it, under the owner's user_id). */
export const Ticket = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(TICKET_STATUSES),
  created_at: z.string(),
}))();
export type Ticket = z.infer<typeof Ticket>;

/** GET /support/tickets: the caller's tickets, newest first. */
export const TicketList = /* @__PURE__ */ (() => z.object({ items: z.array(Ticket) }))();

// ——— Routes (lambdas/contracts/route.ts) ———

export const createSupportTicketRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/support/tickets',
  auth: 'user',
  summary: 'Send a question to support',
  body: CreateTicketRequest,
  response: Ticket,
  status: 201,
  sample: { body: { email: 'seller@example.com', subject: 'A question', message: 'How do I…?' } },
}))();

export const listSupportTicketsRoute = /* @__PURE__ */ (() => defineRoute({ method: 'GET', path: '/support/tickets', auth: 'user', summary: 'Your support tickets', response: TicketList }))();
