// The support mail of a new ticket: through SES in the cloud (the SESv2 SendEmail shape, checked with
// aws-sdk-client-mock: SES has no emulator), into the mailbox file on a host that names one.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { mailTicket, SUPPORT_MAIL_ENV } from '../../lambdas/domain/support/mail.js';
import type { TicketRecord } from '../../lambdas/data/tickets-repo.js';

const ticket: TicketRecord = {
  user_id: 'u1',
  id: 'tkt_0000abcd_x',
  email: 'seller@example.com',
  subject: 'Zip is missing a photo',
  message: 'My last batch zip has one photo missing.',
  status: 'open',
  created_at: '2026-11-25T08:00:00.000Z',
};

const dir = mkdtempSync(join(tmpdir(), 'support-mail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('support mail', () => {
  it('goes through SES from the stage sender to the support address, replying to the seller', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await mailTicket(ticket, { [SUPPORT_MAIL_ENV.to]: 'help@shop.example', [SUPPORT_MAIL_ENV.from]: 'noreply@shop.example' });
    const [call] = ses.commandCalls(SendEmailCommand);
    expect(call!.args[0].input).toMatchObject({
      FromEmailAddress: 'noreply@shop.example',
      Destination: { ToAddresses: ['help@shop.example'] },
      ReplyToAddresses: ['seller@example.com'],
      Content: { Simple: { Subject: { Data: '[ModelLoop support] Zip is missing a photo' } } },
    });
    expect(call!.args[0].input.Content?.Simple?.Body?.Text?.Data).toContain('My last batch zip has one photo missing.');
    ses.restore();
  });

  it('is one JSON line in the mailbox file where the host has no mail service', async () => {
    const mailbox = join(dir, 'support', 'mailbox.jsonl');
    await mailTicket(ticket, { [SUPPORT_MAIL_ENV.to]: 'support@modelloop.local', [SUPPORT_MAIL_ENV.mailbox]: mailbox });
    const [line] = readFileSync(mailbox, 'utf8').trim().split('\n');
    expect(JSON.parse(line!)).toMatchObject({ to: 'support@modelloop.local', replyTo: 'seller@example.com', ticketId: ticket.id });
  });
});
