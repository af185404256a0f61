// A local stand-in for the part of Stripe's API that ModelLoop calls (Checkout Sessions, payment intents, refunds),
// so tests run with no internet. It records every request as the official library sent it (form-encoded body, query,
// Idempotency-Key header), honours idempotency keys as Stripe does, and serves a hosted "checkout page" whose Pay
// button sends the signed checkout.session.completed webhook to the app and then returns to the success URL.
// What it answers follows Stripe's documents, read 2026-11-27:
//   - GET /v1/payment_intents/{id}: `latest_charge` is the charge's id, and the Charge object only when the request
//     asks for it with expand[]=latest_charge ("Expanding responses", https://docs.stripe.com/expand: "you can expand
//     these objects in line with the expand request parameter"); an unknown id is Stripe's 404 resource_missing
//     ("No such payment_intent: '<id>'").
//   - charge.refunded: the event carries the Charge as of the webhook endpoint's API version (`api_version`, here the
//     version the integration pins); since 2022-11-15 a Charge has no `refunds` list ("The Charges object no longer
//     auto-expands refunds by default", https://docs.stripe.com/changelog/2022-11-15/deprecates-charges-auto-expand).
//   - POST /v1/refunds of a payment already refunded in full: 400 invalid_request_error, code charge_already_refunded
//     (a code of Stripe's error-code list, https://docs.stripe.com/error-codes; the installed `stripe` 23.1 types it in
//     its error codes, resources/PaymentIntents.d.ts).
//   - GET /v1/refunds?payment_intent=|charge=: the payment's refunds, newest first (https://docs.stripe.com/api/refunds/list).
//   - Idempotency keys: the first answer is saved and replayed; keys "at least 24 hours old" may be pruned, and "we
//     generate a new request if a key is reused after the original is pruned" (expireIdempotencyKeys() is that day
//     passing; https://docs.stripe.com/api/idempotent_requests).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../../lambdas/domain/payments/stripe-client.js';

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
  /** The query string, flattened: `expand[0]` → 'latest_charge'. */
  query: Record<string, string>;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  reason: string | null;
  created: number;
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
  /** Refunds by payment intent, oldest first. */
  refunds: Map<string, FakeRefund[]>;
  /** The next `count` POSTs to `path` are carried out (or replayed), and their connection then dropped before the answer. */
  loseAnswers?: { path: string; count: number };
  /** A day passes: Stripe prunes the idempotency keys (they last "at least 24 hours"). */
  expireIdempotencyKeys(): void;
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
  /**
   * The event Stripe sends when a payment intent's charge was refunded (in full, or half with `partial`). Without a
   * refund of the payment yet it makes one, as a refund from the dashboard would.
   */
  refundedEvent(paymentIntentId: string, options?: { partial?: boolean; id?: string }): Record<string, unknown>;
  stop(): Promise<void>;
}

const signer = new Stripe('sk_test_signer', { telemetry: false });

export async function startFakeStripe(webhookSecret: string): Promise<FakeStripe> {
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${Date.now().toString(36)}${(++counter).toString(36)}`;
  const idempotent = new Map<string, { body: string; response: unknown; status: number }>();
  const amountOf = (paymentIntentId: string) => [...fake.sessions.values()].find((session) => session.payment_intent === paymentIntentId)?.amount_total ?? 0;
  const refundedOf = (paymentIntentId: string) =>
    (fake.refunds.get(paymentIntentId) ?? []).filter((refund) => refund.status !== 'failed' && refund.status !== 'canceled').reduce((sum, refund) => sum + refund.amount, 0);
  function addRefund(paymentIntentId: string, amount: number, reason: string | null): FakeRefund {
    const refund: FakeRefund = {
      id: nextId('re'),
      object: 'refund',
      amount,
      charge: `ch_for_${paymentIntentId}`,
      payment_intent: paymentIntentId,
      status: 'succeeded',
      reason,
      created: Math.floor(Date.now() / 1000),
    };
    fake.refunds.set(paymentIntentId, [...(fake.refunds.get(paymentIntentId) ?? []), refund]);
    return refund;
  }
  function chargeOf(paymentIntentId: string) {
    const amount = amountOf(paymentIntentId);
    const refunded = refundedOf(paymentIntentId);
    return {
      id: `ch_for_${paymentIntentId}`,
      object: 'charge',
      amount,
      amount_refunded: refunded,
      refunded: amount > 0 && refunded >= amount,
      currency: 'usd',
      paid: true,
      payment_intent: paymentIntentId,
      receipt_url: `https://pay.stripe.com/receipts/test/${paymentIntentId}`,
    };
  }

  const fake: FakeStripe = {
    url: '',
    requests: [],
    sessions: new Map(),
    refunds: new Map(),
    expireIdempotencyKeys: () => idempotent.clear(),
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
        api_version: STRIPE_API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: overrides.type ?? 'checkout.session.completed',
        data: { object: { ...session, status: 'complete', payment_status: overrides.payment_status ?? 'paid', ...overrides.session } },
      };
    },
    refundedEvent(paymentIntentId, options = {}) {
      const amount = amountOf(paymentIntentId);
      const wanted = options.partial ? Math.floor(amount / 2) : amount;
      if (refundedOf(paymentIntentId) < wanted) addRefund(paymentIntentId, wanted - refundedOf(paymentIntentId), null);
      return {
        id: options.id ?? nextId('evt'),
        object: 'event',
        api_version: STRIPE_API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: 'charge.refunded',
        // The Charge as the pinned version has it: no `refunds`.
        data: { object: chargeOf(paymentIntentId) },
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
      query: Object.fromEntries(url.searchParams),
      method: req.method ?? 'GET',
      path: url.pathname,
      form,
      idempotencyKey,
      authorization: header(req, 'authorization'),
      userAgent: header(req, 'user-agent'),
      stripeVersion: header(req, 'stripe-version'),
    });

    let answer: { status: number; body: unknown } | undefined;
    if (req.method === 'POST' && idempotencyKey) {
      const seen = idempotent.get(idempotencyKey);
      if (seen && seen.body !== body) {
        return json(res, 400, {
          error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' },
        });
      }
      if (seen) answer = { status: seen.status, body: seen.response };
    }
    if (!answer) {
      answer = route(req.method ?? 'GET', url, form);
      if (!answer) return json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
      // Stripe saves the first answer of a key once the endpoint ran, an error included.
      if (req.method === 'POST' && idempotencyKey) idempotent.set(idempotencyKey, { body, response: answer.body, status: answer.status });
    }
    const lose = fake.loseAnswers;
    if (lose && lose.count > 0 && lose.path === url.pathname && req.method === 'POST') {
      lose.count -= 1;
      return void req.socket.destroy();
    }
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
      const id = decodeURIComponent(intent[1]!);
      if (![...fake.sessions.values()].some((session) => session.payment_intent === id)) {
        return {
          status: 404,
          body: { error: { code: 'resource_missing', doc_url: 'https://stripe.com/docs/error-codes/resource-missing', message: `No such payment_intent: '${id}'`, param: 'intent', type: 'invalid_request_error' } },
        };
      }
      const expand = [...url.searchParams.entries()].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);
      const charge = chargeOf(id);
      return {
        status: 200,
        body: { id, object: 'payment_intent', amount: charge.amount, currency: 'usd', status: 'succeeded', latest_charge: expand.includes('latest_charge') ? charge : charge.id },
      };
    }
    if (method === 'POST' && url.pathname === '/v1/refunds') {
      const paymentIntentId = form.payment_intent ?? '';
      const amount = amountOf(paymentIntentId);
      if (amount === 0) {
        return { status: 404, body: { error: { code: 'resource_missing', message: `No such payment_intent: '${paymentIntentId}'`, param: 'payment_intent', type: 'invalid_request_error' } } };
      }
      if (refundedOf(paymentIntentId) >= amount) {
        return {
          status: 400,
          body: { error: { code: 'charge_already_refunded', doc_url: 'https://stripe.com/docs/error-codes/charge-already-refunded', message: `Charge ch_for_${paymentIntentId} has already been refunded.`, type: 'invalid_request_error' } },
        };
      }
      return { status: 200, body: addRefund(paymentIntentId, amount - refundedOf(paymentIntentId), form.reason ?? null) };
    }
    if (method === 'GET' && url.pathname === '/v1/refunds') {
      const paymentIntentId = url.searchParams.get('payment_intent') ?? url.searchParams.get('charge')?.replace(/^ch_for_/, '') ?? '';
      const data = [...(fake.refunds.get(paymentIntentId) ?? [])].reverse().slice(0, Number(url.searchParams.get('limit') ?? 10));
      return { status: 200, body: { object: 'list', url: '/v1/refunds', has_more: false, data } };
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
