// The twin's default: the labelled local test payment, capped per user and day; card routes refused.
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { TEST_PAYMENT_DAILY_CREDITS } from '../../lambdas/contracts/api.js';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { api } from '../support/api.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');

describe('the local test payment', () => {
  it('is the mode the web app is told about', async () => {
    expect(await (await fetch(`${twin.webUrl}/config.json`)).json()).toMatchObject({ payments: 'test', testPayments: true });
  });

  it(`grants at most ${TEST_PAYMENT_DAILY_CREDITS} credits per user per day, with a clear 429 beyond, and still answers retries`, async () => {
    const user = await createUser(twin);
    const buy = (credits: number, key = randomUUID()) =>
      api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': key } });
    const firstKey = randomUUID();
    expect((await buy(TEST_PAYMENT_DAILY_CREDITS - 10, firstKey)).status).toBe(200);
    expect((await buy(10)).status).toBe(200);
    const refused = await buy(1);
    expect(refused).toMatchObject({
      status: 429,
      body: { code: 'TEST_PAYMENT_LIMIT', error: 'Test payments grant at most 20,000 credits per account per day, and none are left today. Try again tomorrow.' },
    });
    // A retry of a purchase already made is answered as before, not refused.
    expect(await buy(TEST_PAYMENT_DAILY_CREDITS - 10, firstKey)).toMatchObject({ status: 200, body: { credits: TEST_PAYMENT_DAILY_CREDITS - 10 } });
    const profile = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(profile.body.current_credits).toBe(SIGNUP_CREDITS + TEST_PAYMENT_DAILY_CREDITS);
  });

  it('names the allowance left when a purchase is over it, whether the amount alone is over the day\'s allowance or only with what was bought', async () => {
    const user = await createUser(twin);
    const buy = (credits: number) => api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': randomUUID() } });
    expect((await buy(200)).status).toBe(200);
    expect(await buy(100_000)).toMatchObject({
      status: 429,
      body: {
        code: 'TEST_PAYMENT_LIMIT',
        error: 'Test payments grant at most 20,000 credits per account per day, and 19,800 are left today: buy 19,800 or fewer, or try again tomorrow.',
      },
    });
    expect((await buy(19_790)).status).toBe(200);
    expect(await buy(20)).toMatchObject({
      status: 429,
      body: { error: 'Test payments grant at most 20,000 credits per account per day, and 10 are left today: buy 10 or fewer, or try again tomorrow.' },
    });
    expect((await buy(10)).status).toBe(200);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS + TEST_PAYMENT_DAILY_CREDITS);
  });

  it('caps concurrent test purchases too', async () => {
    const user = await createUser(twin);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 5_000 }, headers: { 'idempotency-key': randomUUID() } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(4);
    const profile = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(profile.body.current_credits).toBe(SIGNUP_CREDITS + 20_000);
  });

  it('counts parallel replays of one purchase once against the day\'s allowance', async () => {
    const user = await createUser(twin);
    // The profile exists already, so nothing staggers the parallel calls.
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    const key = randomUUID();
    const replays = await Promise.all(
      Array.from({ length: 6 }, () => api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 3 }, headers: { 'idempotency-key': key } })),
    );
    expect(replays.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(replays.map((answer) => answer.body.transaction.id)).size).toBe(1);
    // The rest of the day's allowance is all still there: 3 credits of it were taken, not 18.
    const rest = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: TEST_PAYMENT_DAILY_CREDITS - 3 }, headers: { 'idempotency-key': randomUUID() } });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const profile = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(profile.body.current_credits).toBe(SIGNUP_CREDITS + TEST_PAYMENT_DAILY_CREDITS);
    const ledger = await api(twin.apiUrl, 'GET', '/credit-transactions/summary', { user });
    expect(ledger.body).toMatchObject({ bought: TEST_PAYMENT_DAILY_CREDITS, purchases: 2 });
    // The ledger sums to the balance.
    expect(ledger.body.granted + ledger.body.bought - ledger.body.spent - ledger.body.purchase_refunded).toBe(profile.body.current_credits);
  });

  it('refuses card checkout and refund requests where card payments are not enabled', async () => {
    const user = await createUser(twin);
    const checkout = await api(twin.apiUrl, 'POST', '/credits/checkout', { user, body: { credits: 170 }, headers: { 'idempotency-key': randomUUID() } });
    expect(checkout).toMatchObject({ status: 403, body: { code: 'PAYMENTS_DISABLED' } });
    const bought = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 20 }, headers: { 'idempotency-key': randomUUID() } });
    const refund = await api(twin.apiUrl, 'POST', '/credits/refund-requests', { user, body: { transactionId: bought.body.transaction.id } });
    expect(refund).toMatchObject({ status: 400, body: { code: 'NOT_REFUNDABLE' } });
    const webhook = await fetch(`${twin.apiUrl}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: '{}' });
    expect(webhook.status).toBe(404);
    const purchases = await api(twin.apiUrl, 'GET', '/credits/purchases', { user });
    expect(purchases.body.items).toEqual([expect.objectContaining({ credits: 20, refundable: false, refunded: false })]);
  });
});
