// The support mail: every new ticket is sent to the stage's support address (SUPPORT_EMAIL_TO), with the seller's
// address as Reply-To. In the cloud through Amazon SES (the v2 API) from the stage's verified sender
// (SUPPORT_EMAIL_FROM). A host with no mail service (the twin) names a mailbox file instead (SUPPORT_MAILBOX_FILE,
// under .data/), and each mail is one JSON line appended to it, as cognito-local's codes are.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { requireEnv } from '../../core/config.js';
import type { TicketRecord } from '../../data/tickets-repo.js';

export const SUPPORT_MAIL_ENV = {
  to: 'SUPPORT_EMAIL_TO',
  from: 'SUPPORT_EMAIL_FROM',
  mailbox: 'SUPPORT_MAILBOX_FILE',
  /** The SES configuration set the mail names, when the stage has one (context sesConfigurationSet). */
  configurationSet: 'SES_CONFIGURATION_SET',
} as const;

export interface SupportMail {
  to: string;
  replyTo: string;
  subject: string;
  text: string;
}

let ses: SESv2Client | undefined;

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
  const mail = ticketMail(ticket, requireEnv(SUPPORT_MAIL_ENV.to, env));
  const mailbox = env[SUPPORT_MAIL_ENV.mailbox]?.trim();
  if (mailbox) {
    await mkdir(dirname(mailbox), { recursive: true });
    await appendFile(mailbox, `${JSON.stringify({ ...mail, ticketId: ticket.id, sentAt: new Date().toISOString() })}\n`);
    return;
  }
  // SES checks that the sender is a verified identity and, while the account is in the SES sandbox, that every
  // recipient is one too ("Email address is not verified. The following identities failed the check …", SES API
  // reference, MessageRejected): the deploy guide tells the team to verify both before the first ticket.
  await (ses ??= new SESv2Client({})).send(
    new SendEmailCommand({
      FromEmailAddress: requireEnv(SUPPORT_MAIL_ENV.from, env),
      Destination: { ToAddresses: [mail.to] },
      ReplyToAddresses: [mail.replyTo],
      ...(env[SUPPORT_MAIL_ENV.configurationSet] ? { ConfigurationSetName: env[SUPPORT_MAIL_ENV.configurationSet] } : {}),
      Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
    }),
  );
}
