// Card payments over HTTP on a twin in Stripe mode, with a local stand-in for Stripe's API (no internet): checkout
// sessions with the exact parameters, credits granted only by a verified webhook and once per Checkout Session,
// refunds of unused credits, receipts, and the ledger summing to the balance throughout.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { STRIPE_API_VERSION } from '../../lambdas/domain/payments/stripe-client.js';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { moneyChecks } from '../support/money.js';
import { api } from '../support/api.js';
import { startFakeStripe, type FakeSession, type FakeStripe } from '../support/fake-stripe.js';
import { createUser, type TestUser } from '../support/users.js';

const WEBHOOK_SECRET = 'whsec_test_modelloop_integration';
/** What Stripe's official Node library sends as its User-Agent: the calls go through it, not a hand-written client. */
const OFFICIAL_LIBRARY = /^Stripe\/v1 NodeBindings\/\d+\.\d+\.\d+$/;
let twin: Twin;
const { balanceOf, expectLedgerMatchesBalance } = moneyChecks(() => twin.apiUrl);
let stripe: FakeStripe;
let dataDir: string;
let ledgerRepo: typeof import('../../lambdas/data/credits-repo.js');
let paymentsRepo: typeof import('../../lambdas/data/payments-repo.js');
let credits: typeof import('../../lambdas/domain/credits.js');

beforeAll(async () => {
  stripe = await startFakeStripe(WEBHOOK_SECRET);
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-payments-'));
  twin = await startTwin({ dataDir, stripe: { secretKey: 'sk_test_fake_for_tests', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url } });
  stripe.webhookUrl = `${twin.apiUrl}/webhooks/stripe`;
  // The twin configured this process's environment (table names, endpoints): the audits read the same tables.
  ledgerRepo = await import('../../lambdas/data/credits-repo.js');
  paymentsRepo = await import('../../lambdas/data/payments-repo.js');
  credits = await import('../../lambdas/domain/credits.js');
});

afterAll(async () => {
  await twin?.stop();
  await stripe?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function customer(): Promise<TestUser> {
  const user = await createUser(twin.info);
  expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  return user;
}

const checkout = (user: TestUser, amount: unknown, key: string | null = randomUUID()) =>
  api(twin.apiUrl, 'POST', '/credits/checkout', { user, body: { credits: amount }, headers: key ? { 'idempotency-key': key } : {} });

/** A Checkout Session opened through the API, as the billing page does. */
async function openSession(user: TestUser, amount: number): Promise<string> {
  const { status, body } = await checkout(user, amount);
  expect(status).toBe(200);
  return body.sessionId;
}

/** The fields a GET asked Stripe to expand (`expand[]=x` or `expand[0]=x`). */
const expanded = (query: Record<string, string>) => Object.entries(query).filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);

async function purchaseEntries(user: TestUser) {
  return (await ledgerRepo.listWholeLedger(user.sub)).filter((entry) => entry.transaction_type === 'purchase');
}

describe('checkout', () => {
  it('creates a Stripe Checkout Session with the exact parameters and answers its URL', async () => {
    const user = await customer();
    const key = randomUUID();
    const { status, body } = await checkout(user, 170, key);
    expect(status).toBe(200);
    expect(body.url).toBe(`${stripe.url}/pay/${body.sessionId}`);
    const sent = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.authorization).toBe('Bearer sk_test_fake_for_tests');
    expect(sent.idempotencyKey).toBe(`checkout:${user.sub}:${key}`);
    expect(sent).toMatchObject({ userAgent: expect.stringMatching(OFFICIAL_LIBRARY), stripeVersion: STRIPE_API_VERSION });
    expect(sent.form).toMatchObject({
      mode: 'payment',
      client_reference_id: user.sub,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1700',
      'line_items[0][price_data][product_data][name]': '170 ModelLoop credits',
      'metadata[user_id]': user.sub,
      'metadata[credits]': '170',
      'payment_intent_data[metadata][user_id]': user.sub,
      'payment_intent_data[metadata][credits]': '170',
      customer_email: user.email,
      success_url: `${twin.webUrl}/dashboard/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${twin.webUrl}/dashboard/billing?checkout=cancelled`,
    });
    // Opening a session grants nothing.
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });

  it('prices a custom amount at $0.10 a credit, in cents', async () => {
    const user = await customer();
    await openSession(user, 1234);
    expect(stripe.requests.at(-1)!.form['line_items[0][price_data][unit_amount]']).toBe('12340');
  });

  it('answers a retry with the same Idempotency-Key with the same session, and another body with 409', async () => {
    const user = await customer();
    const key = randomUUID();
    const first = await checkout(user, 500, key);
    const again = await checkout(user, 500, key);
    expect(again).toMatchObject({ status: 200, body: { sessionId: first.body.sessionId } });
    const other = await checkout(user, 600, key);
    expect(other).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  });

  it('refuses bad amounts and a missing Idempotency-Key without calling Stripe', async () => {
    const user = await customer();
    const before = stripe.requests.length;
    expect(await checkout(user, 0)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', error: 'The minimum is 1 credit' } });
    expect(await checkout(user, 4)).toMatchObject({ status: 400, body: { error: 'Card payments start at 5 credits ($0.50)' } });
    expect(await checkout(user, 2.5)).toMatchObject({ status: 400, body: { error: 'Credits must be a whole number' } });
    expect(await checkout(user, 100_001)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await checkout(user, 'ten')).toMatchObject({ status: 400 });
    expect(await checkout(user, 170, null)).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_REQUIRED' } });
    expect(stripe.requests.length).toBe(before);
  });

  it('answers 503 "Payments are unavailable right now, nothing was charged" when Stripe cannot be reached', async () => {
    const user = await customer();
    stripe.unavailable = true;
    try {
      const answer = await checkout(user, 170);
      expect(answer).toMatchObject({ status: 503, body: { code: 'PAYMENTS_UNAVAILABLE', error: 'Payments are unavailable right now, nothing was charged.' } });
    } finally {
      stripe.unavailable = false;
    }
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });

  it('tells the web app that card payments are on, and refuses the test payment', async () => {
    const config = await (await fetch(`${twin.webUrl}/config.json`)).json();
    expect(config).toMatchObject({ payments: 'stripe', testPayments: false });
    const user = await customer();
    const answer = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 10 }, headers: { 'idempotency-key': randomUUID() } });
    expect(answer).toMatchObject({ status: 403, body: { code: 'PAYMENTS_DISABLED' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });
});

describe('the Stripe webhook', () => {
  it('grants a paid session once, however often the signed event is delivered, and records what was paid', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 170);
    const event = stripe.completedEvent(sessionId);
    expect(await stripe.deliver(event)).toMatchObject({ status: 200, body: { outcome: 'granted' } });
    expect(await stripe.deliver(event)).toMatchObject({ status: 200, body: { outcome: 'already_granted' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 170);

    const [entry] = await purchaseEntries(user);
    expect(entry).toMatchObject({
      id: `purchase#${sessionId}`,
      amount: 170,
      payment: {
        provider: 'stripe',
        amount_cents: 1700,
        currency: 'usd',
        checkout_session_id: sessionId,
        payment_intent_id: stripe.sessions.get(sessionId)!.payment_intent,
        receipt_url: `https://pay.stripe.com/receipts/test/${stripe.sessions.get(sessionId)!.payment_intent}`,
      },
    });
    // The receipt was read through the official library too, asking for the charge in line: without expand[]=
    // latest_charge Stripe answers only the charge's id, and the receipt is lost (the fake answers as Stripe does).
    const receiptRead = stripe.requests.filter((request) => request.path === `/v1/payment_intents/${stripe.sessions.get(sessionId)!.payment_intent}`);
    expect(receiptRead.at(-1)).toMatchObject({ method: 'GET', userAgent: expect.stringMatching(OFFICIAL_LIBRARY), stripeVersion: STRIPE_API_VERSION });
    expect(expanded(receiptRead.at(-1)!.query)).toEqual(['latest_charge']);
    await expectLedgerMatchesBalance(user);
  });

  it('grants once when the same event arrives ten times at once', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 50);
    const event = stripe.completedEvent(sessionId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => stripe.deliver(event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.body.outcome === 'granted')).toHaveLength(1);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 50);
    expect(await purchaseEntries(user)).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('refuses a tampered event with 400 and grants nothing', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 10);
    const tampered = await stripe.deliver(stripe.completedEvent(sessionId), {
      tamper: (payload) => payload.replace('"credits": "10"', '"credits": "9999"'),
    });
    expect(tampered).toMatchObject({ status: 400, body: { code: 'INVALID_SIGNATURE' } });
    const wrongSecret = await fetch(stripe.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: JSON.stringify(stripe.completedEvent(sessionId)),
    });
    expect(wrongSecret.status).toBe(400);
    const unsigned = await fetch(stripe.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsigned.status).toBe(400);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await purchaseEntries(user)).toHaveLength(0);
  });

  it('refuses an event signed more than five minutes ago (a replay of an old capture)', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 10);
    const old = await stripe.deliver(stripe.completedEvent(sessionId), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(old).toMatchObject({ status: 400, body: { code: 'INVALID_SIGNATURE' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    // Within the tolerance the same session is granted, once.
    const recent = await stripe.deliver(stripe.completedEvent(sessionId), { timestamp: Math.floor(Date.now() / 1000) - 200 });
    expect(recent).toMatchObject({ status: 200, body: { outcome: 'granted' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 10);
  });

  it('grants once across different events of one session, in any order', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 20);
    // An asynchronous payment: completed (unpaid), then async_payment_succeeded; delivered out of order, and the
    // completed event again later after the payment cleared (Stripe retries).
    const succeeded = stripe.completedEvent(sessionId, { type: 'checkout.session.async_payment_succeeded' });
    const completedUnpaid = stripe.completedEvent(sessionId, { payment_status: 'unpaid' });
    const completedPaid = stripe.completedEvent(sessionId);
    expect(await stripe.deliver(succeeded)).toMatchObject({ status: 200, body: { outcome: 'granted' } });
    expect(await stripe.deliver(completedUnpaid)).toMatchObject({ status: 200, body: { outcome: 'awaiting_payment' } });
    expect(await stripe.deliver(completedPaid)).toMatchObject({ status: 200, body: { outcome: 'already_granted' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 20);
    await expectLedgerMatchesBalance(user);
  });

  it('grants nothing for a failed asynchronous payment, nor for a completed session still unpaid', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 30);
    expect(await stripe.deliver(stripe.completedEvent(sessionId, { payment_status: 'unpaid' }))).toMatchObject({ status: 200, body: { outcome: 'awaiting_payment' } });
    expect(await stripe.deliver(stripe.completedEvent(sessionId, { type: 'checkout.session.async_payment_failed', payment_status: 'unpaid' }))).toMatchObject({
      status: 200,
      body: { outcome: 'payment_failed' },
    });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });

  it('records and acknowledges an unknown user or mismatched metadata without granting', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 40);
    const session = stripe.sessions.get(sessionId)!;
    const cases: { reason: string; session: Partial<FakeSession> }[] = [
      { reason: 'unknown_user', session: { metadata: { user_id: 'no-such-user', credits: '40' }, client_reference_id: 'no-such-user' } },
      { reason: 'metadata_mismatch', session: { metadata: { ...session.metadata, credits: '4000' } } },
      { reason: 'metadata_mismatch', session: { client_reference_id: 'someone-else' } },
      { reason: 'metadata_mismatch', session: { amount_total: 1 } },
      { reason: 'metadata_mismatch', session: { currency: 'eur' } },
    ];
    for (const { reason, session: override } of cases) {
      const event = stripe.completedEvent(sessionId, { session: override });
      expect(await stripe.deliver(event), reason).toMatchObject({ status: 200, body: { outcome: 'recorded_not_granted' } });
      expect(await paymentsRepo.getIgnoredEvent(String(event.id))).toMatchObject({ event_type: 'checkout.session.completed', reason });
    }
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    expect(await purchaseEntries(user)).toHaveLength(0);
  });

  it('answers an unknown event type with 2xx and ignores it; bad input never gets a 5xx', async () => {
    const unknown = await stripe.deliver({ id: `evt_${randomUUID()}`, object: 'event', type: 'customer.created', livemode: false, data: { object: { id: 'cus_1', object: 'customer' } } });
    expect(unknown).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    const weird = await stripe.deliver({ id: `evt_${randomUUID()}`, object: 'event', type: 'checkout.session.completed', livemode: false, data: { object: { nothing: true } } });
    expect(weird).toMatchObject({ status: 200, body: { outcome: 'recorded_not_granted' } });
    const refundOfNothing = await stripe.deliver({ id: `evt_${randomUUID()}`, object: 'event', type: 'charge.refunded', livemode: false, data: { object: { id: 'ch_x', object: 'charge' } } });
    expect(refundOfNothing).toMatchObject({ status: 200, body: { outcome: 'recorded_not_granted' } });
    const notJson = await fetch(stripe.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' }, body: 'not json' });
    expect(notJson.status).toBe(400);
  });

  it('verifies a body that arrives base64-encoded (API Gateway does so for binary content types)', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 15);
    const payload = JSON.stringify(stripe.completedEvent(sessionId));
    const { default: Stripe } = await import('stripe');
    const header = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    // The local gateway, like API Gateway, base64-encodes a body whose content type isn't text.
    const response = await fetch(stripe.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'stripe-signature': header }, body: payload });
    expect(response.status).toBe(200);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 15);
  });
});

describe('refunds of unused credits', () => {
  async function paidPurchase(user: TestUser, amount: number): Promise<{ sessionId: string; transactionId: string }> {
    const sessionId = await openSession(user, amount);
    expect(await stripe.deliver(stripe.completedEvent(sessionId))).toMatchObject({ status: 200, body: { outcome: 'granted' } });
    return { sessionId, transactionId: `purchase#${sessionId}` };
  }
  const askRefund = (user: TestUser, transactionId: unknown) => api(twin.apiUrl, 'POST', '/credits/refund-requests', { user, body: { transactionId } });

  it('refunds an unused purchase within 7 days: the money through Stripe, the credits out of the ledger, once', async () => {
    const user = await customer();
    const { sessionId, transactionId } = await paidPurchase(user, 170);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;

    const first = await askRefund(user, transactionId);
    expect(first).toMatchObject({ status: 200, body: { newCredits: SIGNUP_CREDITS, transaction: { transaction_type: 'refund_of_purchase', amount: -170 } } });
    const refundCalls = stripe.requests.filter((request) => request.path === '/v1/refunds');
    expect(refundCalls.at(-1)).toMatchObject({
      idempotencyKey: `refund:${sessionId}`,
      form: { payment_intent: paymentIntent, reason: 'requested_by_customer' },
      userAgent: expect.stringMatching(OFFICIAL_LIBRARY),
      stripeVersion: STRIPE_API_VERSION,
    });

    // Asked again, and Stripe's own charge.refunded for it: nothing more is taken.
    expect(await askRefund(user, transactionId)).toMatchObject({ status: 200, body: { newCredits: SIGNUP_CREDITS } });
    expect(await stripe.deliver(stripe.refundedEvent(paymentIntent))).toMatchObject({ status: 200, body: { outcome: 'already_refunded' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const entries = await ledgerRepo.listWholeLedger(user.sub);
    expect(entries.filter((entry) => entry.transaction_type === 'refund_of_purchase')).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('takes the credits once and asks Stripe for one refund when ten requests race', async () => {
    const user = await customer();
    const { sessionId, transactionId } = await paidPurchase(user, 90);
    const answers = await Promise.all(Array.from({ length: 10 }, () => askRefund(user, transactionId)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const refundIds = new Set(answers.map((answer) => answer.body.refund.id));
    expect(refundIds.size).toBe(1);
    // One call to create it: the racing requests wait for its answer instead of calling Stripe themselves.
    const creates = stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/refunds' && request.form.payment_intent === stripe.sessions.get(sessionId)!.payment_intent);
    expect(creates.map((request) => request.idempotencyKey)).toEqual([`refund:${sessionId}`]);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const entries = await ledgerRepo.listWholeLedger(user.sub);
    expect(entries.filter((entry) => entry.transaction_type === 'refund_of_purchase')).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('refuses when some of the credits were used, with a clear message, and changes nothing', async () => {
    const user = await customer();
    const { transactionId } = await paidPurchase(user, 100);
    await credits.debit(user.sub, { idempotencyKey: `spend-${randomUUID()}`, amount: SIGNUP_CREDITS + 1, description: 'A video', ref: 'gen-1' });
    const before = stripe.requests.length;
    const answer = await askRefund(user, transactionId);
    expect(answer).toMatchObject({
      status: 409,
      body: { code: 'CREDITS_ALREADY_USED', error: 'Only unused credits can be refunded: this purchase was 100 credits and your balance is 99.' },
    });
    expect(stripe.requests.length).toBe(before);
    expect(await balanceOf(user)).toBe(99);
    await expectLedgerMatchesBalance(user);
  });

  it('refuses a purchase older than 7 days', async () => {
    const user = await customer();
    const { transactionId } = await paidPurchase(user, 60);
    // The purchase as if it had been made 8 days ago.
    const { dynamo } = await import('../../lambdas/data/dynamo.js');
    const { tableName } = await import('../../lambdas/data/tables.js');
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('ledger'),
        Key: { user_id: user.sub, id: transactionId },
        UpdateExpression: 'SET created_at = :then',
        ExpressionAttributeValues: { ':then': new Date(Date.now() - 8 * 86_400_000).toISOString() },
      }),
    );
    expect(await askRefund(user, transactionId)).toMatchObject({ status: 400, body: { code: 'REFUND_WINDOW_CLOSED', error: 'Refunds are possible within 7 days of a purchase.' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 60);
  });

  it("answers 404 for a purchase that isn't the caller's, and 400 for a malformed request", async () => {
    const owner = await customer();
    const other = await customer();
    const { transactionId } = await paidPurchase(owner, 25);
    expect(await askRefund(other, transactionId)).toMatchObject({ status: 404 });
    expect(await askRefund(owner, 'grant#signup')).toMatchObject({ status: 404 });
    expect(await askRefund(owner, undefined)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect(await balanceOf(owner)).toBe(SIGNUP_CREDITS + 25);
  });

  const createsFor = (paymentIntent: string) =>
    stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/refunds' && request.form.payment_intent === paymentIntent);

  it('answers a repeated refund request with the refund it made, without calling Stripe, even days later and after charge.refunded', async () => {
    const user = await customer();
    const { sessionId, transactionId } = await paidPurchase(user, 70);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const first = await askRefund(user, transactionId);
    expect(first.status).toBe(200);
    const refundId = first.body.refund.id;
    expect(stripe.refunds.get(paymentIntent)!.map((refund) => refund.id)).toEqual([refundId]);

    // Stripe's event for it, as the pinned API version sends it: a Charge without `refunds`. The refund's record is
    // updated, never replaced: its id stays.
    expect(await stripe.deliver(stripe.refundedEvent(paymentIntent))).toMatchObject({ status: 200, body: { outcome: 'already_refunded' } });
    expect(await paymentsRepo.getRefundRecord(sessionId)).toMatchObject({ refundId, status: 'succeeded' });

    // A day later Stripe no longer knows the idempotency key; asking again must not reach it.
    stripe.expireIdempotencyKeys();
    const again = await askRefund(user, transactionId);
    expect(again).toMatchObject({ status: 200, body: { newCredits: SIGNUP_CREDITS, refund: { id: refundId } } });
    expect(createsFor(paymentIntent)).toHaveLength(1);
    expect(stripe.refunds.get(paymentIntent)).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('finds the refund a lost call made through the API, instead of creating another once the key has expired', async () => {
    const user = await customer();
    const { sessionId, transactionId } = await paidPurchase(user, 40);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    // Stripe makes the refund, and the answer never arrives (nor that of the library's retry with the same key).
    stripe.loseAnswers = { path: '/v1/refunds', count: 2 };
    expect(await askRefund(user, transactionId)).toMatchObject({ status: 503, body: { code: 'REFUND_PENDING' } });
    const made = stripe.refunds.get(paymentIntent)!;
    expect(made).toHaveLength(1);
    const createsBefore = createsFor(paymentIntent).length;

    stripe.expireIdempotencyKeys();
    const again = await askRefund(user, transactionId);
    expect(again).toMatchObject({ status: 200, body: { newCredits: SIGNUP_CREDITS, refund: { id: made[0]!.id, status: 'succeeded' } } });
    expect(createsFor(paymentIntent)).toHaveLength(createsBefore);
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/refunds', query: { payment_intent: paymentIntent } });
    expect(stripe.refunds.get(paymentIntent)).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it("looks a dashboard refund's id up through the API when the event does not carry it", async () => {
    const user = await customer();
    const { sessionId } = await paidPurchase(user, 35);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const event = stripe.refundedEvent(paymentIntent);
    expect((event.data as { object: Record<string, unknown> }).object).not.toHaveProperty('refunds');
    expect(event.api_version).toBe(STRIPE_API_VERSION);
    expect(await stripe.deliver(event)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    const [refund] = stripe.refunds.get(paymentIntent)!;
    expect(await paymentsRepo.getRefundRecord(sessionId)).toMatchObject({ refundId: refund!.id, status: 'succeeded' });
    const entry = (await ledgerRepo.listWholeLedger(user.sub)).find((candidate) => candidate.transaction_type === 'refund_of_purchase');
    expect(entry?.payment).toMatchObject({ refund_id: refund!.id });
    // And the buyer asking afterwards is answered that refund; Stripe is not asked to refund again.
    expect(await askRefund(user, `purchase#${sessionId}`)).toMatchObject({ status: 200, body: { refund: { id: refund!.id } } });
    expect(createsFor(paymentIntent)).toHaveLength(0);
  });

  it('takes the credits back once when the payment is refunded from the Stripe dashboard (charge.refunded)', async () => {
    const user = await customer();
    const { sessionId } = await paidPurchase(user, 80);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const partial = stripe.refundedEvent(paymentIntent, { partial: true });
    expect(await stripe.deliver(partial)).toMatchObject({ status: 200, body: { outcome: 'recorded_not_granted' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS + 80);
    const full = stripe.refundedEvent(paymentIntent);
    expect(await stripe.deliver(full)).toMatchObject({ status: 200, body: { outcome: 'refunded' } });
    expect(await stripe.deliver(full)).toMatchObject({ status: 200, body: { outcome: 'already_refunded' } });
    expect(await stripe.deliver(stripe.refundedEvent(paymentIntent))).toMatchObject({ status: 200, body: { outcome: 'already_refunded' } });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    await expectLedgerMatchesBalance(user);
  });

  it('records a dashboard refund whose credits were already spent, without a negative balance', async () => {
    const user = await customer();
    const { sessionId } = await paidPurchase(user, 10);
    await credits.debit(user.sub, { idempotencyKey: `spend-${randomUUID()}`, amount: 12, description: 'Images', ref: 'gen-2' });
    const event = stripe.refundedEvent(stripe.sessions.get(sessionId)!.payment_intent);
    expect(await stripe.deliver(event)).toMatchObject({ status: 200, body: { outcome: 'recorded_not_granted' } });
    expect(await paymentsRepo.getIgnoredEvent(String(event.id))).toMatchObject({ reason: 'credits_already_spent' });
    expect(await balanceOf(user)).toBe(3);
    await expectLedgerMatchesBalance(user);
  });

  it('lists purchases with amount, date, receipt link and whether a refund is possible', async () => {
    const user = await customer();
    const { sessionId: kept } = await paidPurchase(user, 170);
    const { transactionId: refunded } = await paidPurchase(user, 30);
    expect((await askRefund(user, refunded)).status).toBe(200);
    const { status, body } = await api(twin.apiUrl, 'GET', '/credits/purchases', { user });
    expect(status).toBe(200);
    expect(body.items).toHaveLength(2);
    const [latest, first] = body.items;
    expect(latest).toMatchObject({ transactionId: refunded, credits: 30, amount_cents: 300, currency: 'usd', refunded: true, refundable: false });
    expect(first).toMatchObject({
      transactionId: `purchase#${kept}`,
      credits: 170,
      amount_cents: 1700,
      currency: 'usd',
      receipt_url: `https://pay.stripe.com/receipts/test/${stripe.sessions.get(kept)!.payment_intent}`,
      refunded: false,
      refundable: true,
    });
    expect(Date.parse(first.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('the Stripe fake answers as Stripe documents', () => {
  const client = async () => {
    const { default: Stripe } = await import('stripe');
    const url = new URL(stripe.url);
    return new Stripe('sk_test_fake_for_tests', { apiVersion: STRIPE_API_VERSION, host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  };

  it('expands latest_charge only when asked, and answers an unknown payment intent with 404 resource_missing', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 12);
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const api = await client();
    const plain = await api.paymentIntents.retrieve(paymentIntent);
    expect(plain.latest_charge).toBe(`ch_for_${paymentIntent}`);
    const full = await api.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge'] });
    expect(full.latest_charge).toMatchObject({ object: 'charge', receipt_url: expect.stringContaining(paymentIntent) });
    expect(expanded(stripe.requests.at(-1)!.query)).toEqual(['latest_charge']);
    const missing = await api.paymentIntents.retrieve('pi_does_not_exist').catch((error: unknown) => error);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such payment_intent: 'pi_does_not_exist'" });
  });

  it('refuses to refund a payment already refunded in full (charge_already_refunded)', async () => {
    const user = await customer();
    const sessionId = await openSession(user, 14);
    expect(await stripe.deliver(stripe.completedEvent(sessionId))).toMatchObject({ status: 200 });
    const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent;
    const api = await client();
    const refund = await api.refunds.create({ payment_intent: paymentIntent });
    expect(refund).toMatchObject({ object: 'refund', status: 'succeeded', amount: 140 });
    const twice = await api.refunds.create({ payment_intent: paymentIntent }).catch((error: unknown) => error);
    expect(twice).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'charge_already_refunded' });
    expect((await api.refunds.list({ payment_intent: paymentIntent })).data.map((listed) => listed.id)).toEqual([refund.id]);
  });
});
