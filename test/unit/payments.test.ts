// Payment settings and the checks that need no database: the test payment never runs on prod, Stripe's address for
// tests, and the webhook refusing what isn't signed by the endpoint's secret (the library's constructEvent over the raw
// body) before reading anything.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentMode, testPaymentAllowed } from '../../lambdas/domain/payments/settings.js';
import { stripeApiTarget } from '../../lambdas/domain/payments/stripe-client.js';

const saved = { ...process.env };
afterEach(() => {
  for (const key of ['PAYMENTS', 'STAGE', 'STRIPE_WEBHOOK_SECRET']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe('payment settings', () => {
  it('allows the test payment only in test mode and never where STAGE is prod', () => {
    expect(testPaymentAllowed({ PAYMENTS: 'test', STAGE: 'staging' })).toBe(true);
    expect(testPaymentAllowed({ PAYMENTS: 'test', STAGE: 'local' })).toBe(true);
    expect(testPaymentAllowed({ PAYMENTS: 'test', STAGE: 'prod' })).toBe(false);
    expect(testPaymentAllowed({ PAYMENTS: 'stripe', STAGE: 'staging' })).toBe(false);
    expect(testPaymentAllowed({})).toBe(false);
    expect(paymentMode({ PAYMENTS: 'nonsense' })).toBe('off');
  });

  it('refuses the test payment on a prod function before touching the ledger', async () => {
    process.env.PAYMENTS = 'test';
    process.env.STAGE = 'prod';
    const { buyWithTestPayment } = await import('../../lambdas/domain/payments/test-payment.js');
    await expect(buyWithTestPayment('user-1', 100, 'key-12345678')).rejects.toMatchObject({ status: 403, code: 'PAYMENTS_DISABLED' });
  });

  it("points the Stripe library at a stand-in for Stripe's API only when STRIPE_API_BASE is set", () => {
    expect(stripeApiTarget(undefined)).toEqual({});
    expect(stripeApiTarget('http://127.0.0.1:4242')).toEqual({ host: '127.0.0.1', port: 4242, protocol: 'http' });
    expect(stripeApiTarget('https://stripe.example/')).toEqual({ host: 'stripe.example', port: 443, protocol: 'https' });
  });
});

describe('the Stripe webhook before any grant', () => {
  const secret = 'whsec_unit';
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.created', livemode: false, data: { object: { id: 'cus_1' } } });
  const signer = new Stripe('sk_test_unit');
  const event = (body: string, headers: Record<string, string>, isBase64Encoded = false) =>
    ({ headers, body: isBase64Encoded ? Buffer.from(body).toString('base64') : body, isBase64Encoded }) as unknown as APIGatewayProxyEventV2;

  async function call(e: APIGatewayProxyEventV2) {
    process.env.PAYMENTS = 'stripe';
    process.env.STRIPE_WEBHOOK_SECRET = secret;
    const { handler } = await import('../../lambdas/handlers/stripe-webhook.js');
    const result = (await handler(e)) as { statusCode: number; body: string };
    return { status: result.statusCode, body: JSON.parse(result.body) };
  }

  it('accepts a signed event, raw or base64-encoded, and ignores an unknown type with 200', async () => {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    expect(await call(event(payload, { 'stripe-signature': header }))).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
    expect(await call(event(payload, { 'Stripe-Signature': header }, true))).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
  });

  it('answers 400 to a missing, wrong, tampered or expired signature', async () => {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    const old = signer.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 301 });
    const other = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    for (const e of [
      event(payload, {}),
      event(payload, { 'stripe-signature': other }),
      event(payload.replace('cus_1', 'cus_2'), { 'stripe-signature': header }),
      event(payload, { 'stripe-signature': old }),
      event('', { 'stripe-signature': header }),
    ]) {
      expect(await call(e)).toMatchObject({ status: 400, body: { code: 'INVALID_SIGNATURE' } });
    }
  });

  it('answers 404 where card payments are not enabled', async () => {
    const { handler } = await import('../../lambdas/handlers/stripe-webhook.js');
    process.env.PAYMENTS = 'test';
    const result = (await handler(event(payload, { 'stripe-signature': 'x' }))) as { statusCode: number };
    expect(result.statusCode).toBe(404);
  });
});
