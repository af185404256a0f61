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
  /** A subject or address with a line break or another control character (it would be a header of the mail). */
  controlCharacters: (field: string) => `The ${field} can't contain line breaks or control characters`,
  /** The message keeps line breaks and tabs, nothing else of the kind. */
  messageControlCharacters: 'The message can\'t contain control characters other than line breaks and tabs',
  subject: 'Please enter a subject',
  message: 'Please describe how we can help',
  /** The toast after a ticket was created. */
  sent: (email: string) => `Thanks! We'll reply to ${email} within ${SUPPORT_REPLY_HOURS} hours.`,
} as const;

/** The stable code of a support field refused for a control character (400). */
export const CONTROL_CHARACTERS_CODE = 'CONTROL_CHARACTERS';
// Every C0 and C1 control character and DEL (Unicode category Cc), and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const noControl = (field: string) => ({ error: SUPPORT_MESSAGES.controlCharacters(field), params: { code: CONTROL_CHARACTERS_CODE }, abort: true });

/**
 * POST /support/tickets. The subject and the address become headers of the support mail, so a line break there could
 * add a header (Bcc:) or make SES refuse the mail: they refuse every control character, with a stable code. The
 * message is the mail's body: it keeps line breaks (CRLF and CR read as LF) and tabs, and refuses other control characters.
 * `email` is a contact the seller gives; the mail replies to the account's own verified address whatever it says.
 */
export const CreateTicketRequest = /* @__PURE__ */ (() => z.object({
  email: z
    .string({ error: SUPPORT_MESSAGES.email })
    .refine((value) => !CONTROL.test(value), noControl('e-mail address'))
    .trim()
    .email(SUPPORT_MESSAGES.email)
    .max(254, SUPPORT_MESSAGES.email),
  subject: z
    .string({ error: SUPPORT_MESSAGES.subject })
    .refine((value) => !CONTROL.test(value), noControl('subject'))
    .trim()
    .min(1, SUPPORT_MESSAGES.subject)
    .max(SUPPORT_SUBJECT_MAX_LENGTH, `The subject can be at most ${SUPPORT_SUBJECT_MAX_LENGTH} characters`),
  message: z
    .string({ error: SUPPORT_MESSAGES.message })
    .transform((value) => value.replace(/\r\n?/g, '\n'))
    .refine((value) => !CONTROL.test(value.replace(/[\n\t]/g, '')), { error: SUPPORT_MESSAGES.messageControlCharacters, params: { code: CONTROL_CHARACTERS_CODE }, abort: true })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, SUPPORT_MESSAGES.message)
        .max(SUPPORT_MESSAGE_MAX_LENGTH, `The message can be at most ${SUPPORT_MESSAGE_MAX_LENGTH} characters`),
    ),
}))();
export type CreateTicketRequest = z.input<typeof CreateTicketRequest>;

/** Whether the ticket's mail reached the mail service: `pending` until it is tried, then `sent` or `failed`. */
export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

/** A ticket as the API answers it (and as the tickets table holds it, under the owner's user_id). */
export const Ticket = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  /** Where support replies: the account's own verified address (the mail's Reply-To). */
  email: z.string(),
  /** Another address the seller gave in the form: shown to support as a contact, marked unverified, never replied to. */
  contact_email: z.string().optional(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(TICKET_STATUSES),
  /** Tickets stored before mail_status was recorded have none. */
  mail_status: z.enum(MAIL_STATUSES).optional(),
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
