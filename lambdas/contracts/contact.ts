// The public contact form of the demo page (/book-demo): a visitor without an account asks for a demo. It is stored
// like a support ticket and mailed to the stage's support address. Shared by the Lambda handler and the web app.
import * as z from 'zod';
import { defineRoute } from './route.js';

export const CONTACT_MESSAGES = {
  name: 'Please enter your name',
  email: 'Please enter the e-mail address we should reply to',
  message: 'Please tell us what you would like to see',
  /** A line field (name, company, e-mail) holds no line breaks or other control characters: they become mail headers. */
  oneLine: 'Please use one line, without control characters',
  sent: (email: string) => `Thanks! We'll write to ${email} within 24 hours to find a time.`,
} as const;

// Control characters: none at all in a one-line field; in a message, newlines and tabs only.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

const oneLine = (missing: string, max: number) =>
  z.string({ error: missing }).trim().min(1, missing).max(max, `At most ${max} characters, please`).refine((text) => !CONTROL.test(text), CONTACT_MESSAGES.oneLine);

/** POST /contact-requests. */
export const ContactRequest = /* @__PURE__ */ (() => z.object({
  name: oneLine(CONTACT_MESSAGES.name, 100),
  email: oneLine(CONTACT_MESSAGES.email, 254).pipe(z.string().email(CONTACT_MESSAGES.email)),
  company: z.string().trim().max(100, 'At most 100 characters, please').refine((text) => !CONTROL.test(text), CONTACT_MESSAGES.oneLine).optional(),
  message: z
    .string({ error: CONTACT_MESSAGES.message })
    .trim()
    .min(1, CONTACT_MESSAGES.message)
    .max(2000, 'At most 2000 characters, please')
    .refine((text) => !CONTROL_BUT_LINES.test(text), 'Please remove control characters from the message'),
}))();
export type ContactRequest = z.input<typeof ContactRequest>;

export const ContactReceipt = /* @__PURE__ */ (() => z.object({ id: z.string(), created_at: z.string() }))();

export const createContactRequestRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/contact-requests',
  auth: 'public',
  summary: 'Ask for a demo (the public contact form)',
  body: ContactRequest,
  response: ContactReceipt,
  status: 201,
  sample: { body: { name: 'Ada', email: 'ada@example.com', message: 'A demo for our jewelry shop, please.' } },
}))();
