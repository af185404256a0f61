// The support mail: every new ticket is sent to the stage's support address (SUPPORT_EMAIL_TO), with the seller's
// address as Reply-To, through the studio's one mail sender (core/mail.ts: SES in the cloud, a mailbox file on the twin).
import { requireEnv } from '../../core/config.js';
import { MAIL_ENV, sendMail, type Mail } from '../../core/mail.js';
import type { TicketRecord } from '../../data/tickets-repo.js';

export const SUPPORT_MAIL_ENV = { to: 'SUPPORT_EMAIL_TO', ...MAIL_ENV } as const;

export type SupportMail = Mail & { replyTo: string };

/**
 * The mail a ticket makes: what the support team reads, with the ticket's id to find it again. It replies to the
 * account's own verified address (ticket.email); a contact the seller typed in the form is listed, marked unverified,
 * and is never a header. The subject has no control characters (the contract refuses them).
 */
export function ticketMail(ticket: TicketRecord, to: string): SupportMail {
  return {
    to,
    replyTo: ticket.email,
    subject: `[ModelLoop support] ${ticket.subject}`,
    text: [
      `Ticket ${ticket.id}`,
      `From ${ticket.email} (the account's verified address; replies go there)`,
      ...(ticket.contact_email ? [`Contact given in the form: ${ticket.contact_email} (unverified: not confirmed to belong to this account)`] : []),
      `Opened ${ticket.created_at}`,
      '',
      ticket.message,
    ].join('\n'),
  };
}

/** Sends the ticket's mail to the stage's support address. */
export async function mailTicket(ticket: TicketRecord, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await sendMail(ticketMail(ticket, requireEnv(SUPPORT_MAIL_ENV.to, env)), { ticketId: ticket.id }, env);
}
