// A local stand-in for the part of Stripe's API that ModelLoop calls (Checkout Sessions, payment intents, refunds),
// so tests run with no internet. It records every request as the official library sent it (form-encoded body,
// Idempotency-Key header), honours idempotency keys as Stripe does, and serves a hosted "checkout page" whose Pay
// button sends the signed checkout.session.completed webhook to the app and then returns to the success URL.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body, flattened as sent: `line_items[0][price_data][unit_amount]` → '1700'. */
  form: Record<string, string>;
  idempotencyKey?: string;
  authorization?: string;
  /** Who sent it, as Stripe's request logs show it: the official Node library says `Stripe/v1 NodeBindings/<version>`. */
  userAgent?: string;
  stripeVersion?: string;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  payment_status: 'paid' | 'unpaid';
  status: 'open' | 'complete';
  payment_intent: string;
  success_url: string;
  cancel_url: string;
  livemode: false;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  /** When true, every API call fails at the connection (Stripe unreachable). */
  unavailable: boolean;
  /** Where the hosted checkout page delivers webhooks (the app's /webhooks/stripe). */
  webhookUrl?: string;
  /** The hosted page returns to the app first and delivers the webhook this much later (as Stripe may); 0: before. */
  deliveryDelayMs: number;
  /** A signed webhook delivery of `event` to webhookUrl; answers the app's status and body. */
  deliver(event: Record<string, unknown>, options?: { timestamp?: number; tamper?: (payload: string) => string }): Promise<{ status: number; body: any }>;
  /** The event Stripe sends when a session is paid. */
  completedEvent(sessionId: string, overrides?: { type?: string; payment_status?: 'paid' | 'unpaid'; session?: Partial<FakeSession>; id?: string }): Record<string, unknown>;
  /** The event Stripe sends when a payment intent's charge was refunded in full. */
  refundedEvent(paymentIntentId: string, options?: { partial?: boolean; id?: string }): Record<string, unknown>;
  stop(): Promise<void>;
}

const signer = new Stripe('sk_test_signer', { telemetry: false });

export async function startFakeStripe(webhookSecret: string): Promise<FakeStripe> {
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${Date.now().toString(36)}${(++counter).toString(36)}`;
  const idempotent = new Map<string, { body: string; response: unknown }>();

  const fake: FakeStripe = {
    url: '',
    requests: [],
    sessions: new Map(),
    unavailable: false,
    deliveryDelayMs: 0,
    async deliver(event, options = {}) {
      if (!fake.webhookUrl) throw new Error('The fake Stripe has no webhook URL');
      const payload = JSON.stringify(event, null, 2);
      const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp: options.timestamp });
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: options.tamper ? options.tamper(payload) : payload,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    completedEvent(sessionId, overrides = {}) {
      const session = fake.sessions.get(sessionId);
      if (!session) throw new Error(`No session ${sessionId}`);
      return {
        id: overrides.id ?? nextId('evt'),
        object: 'event',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: overrides.type ?? 'checkout.session.completed',
        data: { object: { ...session, status: 'complete', payment_status: overrides.payment_status ?? 'paid', ...overrides.session } },
      };
    },
    refundedEvent(paymentIntentId, options = {}) {
      const amount = [...fake.sessions.values()].find((session) => session.payment_intent === paymentIntentId)?.amount_total ?? 0;
      return {
        id: options.id ?? nextId('evt'),
        object: 'event',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: 'charge.refunded',
        data: {
          object: {
            id: `ch_for_${paymentIntentId}`,
            object: 'charge',
            amount,
            amount_refunded: options.partial ? Math.floor(amount / 2) : amount,
            refunded: !options.partial,
            currency: 'usd',
            payment_intent: paymentIntentId,
            refunds: { object: 'list', data: [{ id: nextId('re'), object: 'refund' }] },
          },
        },
      };
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (url.pathname.startsWith('/pay/')) return payPage(req, res, url, body);
    if (fake.unavailable) return void req.socket.destroy();
    const form = Object.fromEntries(new URLSearchParams(body));
    const idempotencyKey = header(req, 'idempotency-key');
    fake.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      form,
      idempotencyKey,
      authorization: header(req, 'authorization'),
      userAgent: header(req, 'user-agent'),
      stripeVersion: header(req, 'stripe-version'),
    });

    if (req.method === 'POST' && idempotencyKey) {
      const seen = idempotent.get(idempotencyKey);
      if (seen && seen.body !== body) {
        return json(res, 400, {
          error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' },
        });
      }
      if (seen) return json(res, 200, seen.response);
    }
    const answer = route(req.method ?? 'GET', url, form);
    if (!answer) return json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
    if (req.method === 'POST' && idempotencyKey && answer.status === 200) idempotent.set(idempotencyKey, { body, response: answer.body });
    json(res, answer.status, answer.body);
  }

  function route(method: string, url: URL, form: Record<string, string>): { status: number; body: unknown } | undefined {
    if (method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = nextId('cs');
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) {
        const found = /^metadata\[(.+)\]$/.exec(key);
        if (found) metadata[found[1]!] = value;
      }
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        mode: form.mode ?? '',
        url: `${fake.url}/pay/${id}`,
        client_reference_id: form.client_reference_id ?? null,
        metadata,
        amount_total: Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]'] ?? 1),
        currency: form['line_items[0][price_data][currency]'] ?? '',
        payment_status: 'unpaid',
        status: 'open',
        payment_intent: nextId('pi'),
        success_url: form.success_url ?? '',
        cancel_url: form.cancel_url ?? '',
        livemode: false,
      };
      fake.sessions.set(id, session);
      return { status: 200, body: session };
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && intent) {
      const id = intent[1]!;
      return {
        status: 200,
        body: {
          id,
          object: 'payment_intent',
          latest_charge: { id: `ch_for_${id}`, object: 'charge', receipt_url: `https://pay.stripe.com/receipts/test/${id}` },
        },
      };
    }
    if (method === 'POST' && url.pathname === '/v1/refunds') {
      return { status: 200, body: { id: nextId('re'), object: 'refund', status: 'succeeded', payment_intent: form.payment_intent, amount: null } };
    }
    return undefined;
  }

  /** Stripe's hosted page, reduced to a Pay and a Cancel button. */
  async function payPage(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const id = url.pathname.split('/')[2] ?? '';
    const session = fake.sessions.get(id);
    if (!session) return json(res, 404, { error: 'no such session' });
    if (req.method === 'POST') {
      const action = new URLSearchParams(body).get('action');
      if (action === 'pay') {
        session.status = 'complete';
        session.payment_status = 'paid';
        const event = fake.completedEvent(id);
        if (fake.deliveryDelayMs > 0) setTimeout(() => void fake.deliver(event).catch(() => undefined), fake.deliveryDelayMs);
        else await fake.deliver(event);
        res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) });
      } else {
        res.writeHead(303, { location: session.cancel_url });
      }
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Fake Stripe Checkout</title><main>
      <h1>Pay $${(session.amount_total / 100).toFixed(2)}</h1>
      <form method="post"><button name="action" value="pay">Pay</button><button name="action" value="cancel">Back to ModelLoop</button></form>
    </main></html>`);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
