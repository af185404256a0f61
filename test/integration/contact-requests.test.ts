// The demo page's public contact form (POST /contact-requests): a visitor without an account reaches the team, the
// fields that become mail headers hold one line, and a burst is refused before anything is stored or mailed.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { api } from '../support/api.js';

const twin = inject('twin');
const mails = (marker: string) => {
  const file = twin.env.SUPPORT_MAILBOX_FILE!;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => JSON.parse(line) as { to: string; replyTo: string; subject: string; text: string });
};
const contact = (body: Record<string, unknown>) => api(twin.apiUrl, 'POST', '/contact-requests', { body });

describe('POST /contact-requests', () => {
  it('stores and mails a demo request without an account', async () => {
    const company = `Linen Co ${Date.now()}`;
    const answer = await contact({ name: 'Ada', email: 'ada.linen@example.com', company, message: 'Shirts on a model.\nAbout 40 a month.' });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toMatch(/^tkt_/);
    const [mail, ...others] = mails(company);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ to: 'support@modelloop.local', replyTo: 'ada.linen@example.com', subject: `[ModelLoop support] Demo request: ${company}` });
    expect(mail!.text).toContain('Shirts on a model.\nAbout 40 a month.');
  });

  it('refuses line breaks and control characters in the fields that become mail headers', async () => {
    const marker = `Injected ${Date.now()}`;
    for (const body of [
      { name: `Eve\r\nBcc: victim@evil.test`, email: 'eve@example.com', message: marker },
      { name: 'Eve', email: 'eve@example.com\r\nBcc: victim@evil.test', message: marker },
      { name: 'Eve', company: 'X\u0007', email: 'eve@example.com', message: marker },
      { name: 'Eve', email: 'eve@example.com', message: `${marker}\u0000` },
    ]) {
      const answer = await contact(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
    }
    expect(mails(marker)).toEqual([]);
  });

  it('takes at most 3 requests an hour for one address, in parallel too, and answers 429 with Retry-After after', async () => {
    const email = `burst.${Date.now()}@example.com`;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => contact({ name: 'Bo', email, message: `burst ${email} ${index}` })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body.code).toBe('RATE_LIMITED');
    expect(mails(`burst ${email}`)).toHaveLength(3);
    const again = await fetch(`${twin.apiUrl}/contact-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bo', email, message: 'once more' }),
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
