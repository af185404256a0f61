// Support tickets over HTTP against the twin, with the requests a red team sent (issue 40, item 1): a header injected
// through the subject, control characters, a burst of tickets, a stranger's address as Reply-To, and a mail that
// fails. The mail is read where the twin delivers it (the support mailbox file).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { USER_LIMITS } from '../../lambdas/contracts/catalog.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
const mailbox = twin.env.SUPPORT_MAILBOX_FILE!;

interface Mail {
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  ticketId: string;
}
const mails = (): Mail[] => (existsSync(mailbox) ? readFileSync(mailbox, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Mail) : []);

const ticket = (user: TestUser, body: Record<string, unknown>) => api(twin.apiUrl, 'POST', '/support/tickets', { user, body });
const valid = (user: TestUser, subject = `Question ${Math.random().toString(36).slice(2)}`) => ({ email: user.email, subject, message: 'How do I loop a video?' });

/** Waits for a fresh minute when the current one is nearly over: the ticket rate counts fixed one-minute windows. */
async function startOfAWindow(): Promise<void> {
  const windowMs = USER_LIMITS.rates.supportTickets.windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('support tickets refuse what would become a mail header', () => {
  it('refuses CR/LF in the subject (a Bcc: header), control characters in subject, address and message: 400 CONTROL_CHARACTERS, nothing stored or mailed', async () => {
    const user = await createUser(twin);
    const before = mails().length;
    const refused = [
      { ...valid(user), subject: 'Hello\r\nBcc: victim@evil.test\r\nX-Injected: 1' },
      { ...valid(user), subject: 'Hello\nBcc: victim@evil.test' },
      { ...valid(user), subject: 'Bell \u0000\u0007' },
      { ...valid(user), subject: 'Line\u2028separator' },
      { ...valid(user), email: `${user.email}\r\nBcc: victim@evil.test` },
      { ...valid(user), message: 'Hello \u0000\u0007 there' },
      { ...valid(user), message: 'Escape \u001b[31m red' },
    ];
    for (const body of refused) {
      const answer = await ticket(user, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code, JSON.stringify(body)).toBe('CONTROL_CHARACTERS');
    }
    expect((await api(twin.apiUrl, 'GET', '/support/tickets', { user })).body.items).toEqual([]);
    expect(mails().length).toBe(before);
  });

  it('keeps line breaks and tabs in the message (CRLF read as LF), and the mail carries them', async () => {
    const user = await createUser(twin);
    const answer = await ticket(user, { ...valid(user, 'Two lines'), message: 'First line\r\nSecond line\n\tindented' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ message: 'First line\nSecond line\n\tindented', mail_status: 'sent' });
    const mail = mails().find((found) => found.ticketId === answer.body.id)!;
    expect(mail.text).toContain('First line\nSecond line\n\tindented');
    expect(mail.subject).toBe('[ModelLoop support] Two lines');
  });
});

describe('support tickets are rate limited per user', () => {
  it(`lets ${USER_LIMITS.rates.supportTickets.limit} of 12 parallel tickets through, refuses the rest with 429 and Retry-After, and another user is not affected`, async () => {
    const [user, other] = await Promise.all([createUser(twin), createUser(twin)]);
    await startOfAWindow();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        fetch(`${twin.apiUrl}/support/tickets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(valid(user, `Burst ${index}`)),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(USER_LIMITS.rates.supportTickets.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(12 - USER_LIMITS.rates.supportTickets.limit);
    const refused = answers.find((answer) => answer.status === 429)!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(USER_LIMITS.rates.supportTickets.windowSeconds);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringContaining('support requests') });
    expect((await api(twin.apiUrl, 'GET', '/support/tickets', { user })).body.items).toHaveLength(USER_LIMITS.rates.supportTickets.limit);
    expect((await ticket(other, valid(other))).status).toBe(201);
  });
});

describe('support replies to the account, never to an address typed in the form', () => {
  it("mails with the account's verified address as Reply-To; another address is a contact marked unverified", async () => {
    const user = await createUser(twin);
    const answer = await ticket(user, { ...valid(user, 'Reply where?'), email: 'stranger@evil.test' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ email: user.email, contact_email: 'stranger@evil.test' });
    const mail = mails().find((found) => found.ticketId === answer.body.id)!;
    expect(mail.replyTo).toBe(user.email);
    expect(mail.text).toMatch(/stranger@evil\.test \(unverified/);
    // The same address as the account's is no extra contact.
    const own = await ticket(user, { ...valid(user, 'Own address'), email: user.email.toUpperCase() });
    expect(own.body.contact_email).toBeUndefined();
  });
});

describe('a support mail that fails is never silent', () => {
  it("stores the ticket with mail_status 'failed' and lists it so", async () => {
    const user = await createUser(twin);
    // The twin's mail service is the mailbox file: a directory in its place makes the delivery fail.
    const aside = `${mailbox}.aside`;
    const hadMailbox = existsSync(mailbox);
    if (hadMailbox) renameSync(mailbox, aside);
    mkdirSync(mailbox, { recursive: true });
    let answer;
    try {
      answer = await ticket(user, valid(user, 'Will not be mailed'));
    } finally {
      rmSync(mailbox, { recursive: true, force: true });
      if (hadMailbox) renameSync(aside, mailbox);
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.mail_status).toBe('failed');
    const listed = (await api(twin.apiUrl, 'GET', '/support/tickets', { user })).body.items;
    expect(listed).toEqual([expect.objectContaining({ id: answer.body.id, mail_status: 'failed' })]);
    const sent = await ticket(user, valid(user, 'Mailed again'));
    expect(sent.body.mail_status).toBe('sent');
  });
});
