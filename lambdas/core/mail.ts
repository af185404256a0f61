// Mail the studio sends: in the cloud through Amazon SES (the v2 API) from the stage's verified sender
// (SUPPORT_EMAIL_FROM, context supportFromEmail). A host with no mail service (the twin) names a mailbox file instead
// (SUPPORT_MAILBOX_FILE, under .data/), and each mail is one JSON line appended to it, as cognito-local's codes are.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { requireEnv } from './config.js';

export const MAIL_ENV = {
  from: 'SUPPORT_EMAIL_FROM',
  mailbox: 'SUPPORT_MAILBOX_FILE',
  /** The SES configuration set the mail names, when the stage has one (context sesConfigurationSet). */
  configurationSet: 'SES_CONFIGURATION_SET',
} as const;

export interface Mail {
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
}

let ses: SESv2Client | undefined;

/** Whether this host can send mail at all: a stage without a sender (no supportFromEmail) cannot. */
export const canSendMail = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env[MAIL_ENV.mailbox]?.trim() || env[MAIL_ENV.from]?.trim());

/** Sends `mail`; on the twin `record` (ids that say what it is about) goes into the mailbox line beside it. */
export async function sendMail(mail: Mail, record: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const mailbox = env[MAIL_ENV.mailbox]?.trim();
  if (mailbox) {
    await mkdir(dirname(mailbox), { recursive: true });
    await appendFile(mailbox, `${JSON.stringify({ ...mail, ...record, sentAt: new Date().toISOString() })}\n`);
    return;
  }
  // SES checks that the sender is a verified identity and, while the account is in the SES sandbox, that every
  // recipient is one too ("Email address is not verified. The following identities failed the check …", SES API
  // reference, MessageRejected): the deploy guide tells the team to verify both before the first mail.
  await (ses ??= new SESv2Client({})).send(
    new SendEmailCommand({
      FromEmailAddress: requireEnv(MAIL_ENV.from, env),
      Destination: { ToAddresses: [mail.to] },
      ...(mail.replyTo ? { ReplyToAddresses: [mail.replyTo] } : {}),
      ...(env[MAIL_ENV.configurationSet] ? { ConfigurationSetName: env[MAIL_ENV.configurationSet] } : {}),
      Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
    }),
  );
}
