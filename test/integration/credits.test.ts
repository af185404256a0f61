// The foundation over the real local twin: real cognito-local tokens, the local gateway, DynamoDB Local.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { moneyChecks } from '../support/money.js';
import { api } from '../support/api.js';
import { createUser, signIn, type TestUser } from '../support/users.js';

const twin = inject('twin');
const money = moneyChecks(twin.apiUrl);
const { balanceOf } = money;
// The domain core reads its table names and endpoints from the environment, as the deployed functions do.
Object.assign(process.env, twin.env);
const credits = await import('../../lambdas/domain/credits.js');
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');

/** A signed-up user who has made their first authenticated call (which creates the profile with 5 credits). */
async function newCustomer(): Promise<TestUser> {
  const user = await createUser(twin);
  expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  return user;
}

const buy = (user: TestUser, amount: number, key = randomUUID()) =>
  api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: amount }, headers: { 'idempotency-key': key } });

async function expectLedgerMatchesBalance(user: TestUser): Promise<void> {
  const entries = await money.expectLedgerMatchesBalance(user);
  // Every entry's balance_after is the running sum, in order.
  let running = 0;
  for (const entry of entries) {
    running += entry.amount;
    expect(entry.balance_after).toBe(running);
  }
}

describe('profiles and the sign-up grant', () => {
  it('gives a new user exactly 5 credits, recorded as one ledger entry', async () => {
    const user = await createUser(twin);
    const { status, body } = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: user.sub, email: user.email, current_credits: SIGNUP_CREDITS, plan_id: 'free_trial', total_credits_spent: 0 });
    const transactions = await api(twin.apiUrl, 'GET', '/credit-transactions', { user });
    expect(transactions.body.items).toEqual([
      expect.objectContaining({ transaction_type: 'signup_bonus', amount: SIGNUP_CREDITS, balance_after: SIGNUP_CREDITS }),
    ]);
  });

  it('grants the sign-up credits once when the first calls race', async () => {
    const user = await createUser(twin);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api(twin.apiUrl, 'GET', '/profile', { user })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((answer) => answer.body.current_credits))).toEqual(new Set([SIGNUP_CREDITS]));
    const entries = await ledgerRepo.listWholeLedger(user.sub);
    expect(entries.filter((entry) => entry.transaction_type === 'signup_bonus')).toHaveLength(1);
    await expectLedgerMatchesBalance(user);
  });

  it('moves last_login to the newest sign-in and keeps created_at', async () => {
    const user = await createUser(twin);
    const first = (await api(twin.apiUrl, 'GET', '/profile', { user })).body;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // auth_time has a resolution of one second
    const again = await signIn(twin, user.email);
    const second = (await api(twin.apiUrl, 'GET', '/profile', { user: again })).body;
    expect(second.created_at).toBe(first.created_at);
    expect(second.last_login > first.last_login).toBe(true);
  });
});

describe('the credits ledger', () => {
  it('lets exactly 30 of 50 concurrent debits of 1 through against 30 credits', async () => {
    const user = await newCustomer();
    expect((await buy(user, 30 - SIGNUP_CREDITS)).status).toBe(200);
    expect(await balanceOf(user)).toBe(30);

    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        credits.debit(user.sub, { idempotencyKey: `race-${index}`, amount: 1, description: 'Test debit', ref: `gen-${index}` }),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(succeeded).toHaveLength(30);
    expect(refused).toHaveLength(20);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS' });
    expect(await balanceOf(user)).toBe(0);
    await expectLedgerMatchesBalance(user);
  });

  it('lets exactly 60 of 100 concurrent debits of one user through against 60 credits, in seq order, no 5xx', async () => {
    const user = await newCustomer();
    expect((await buy(user, 60 - SIGNUP_CREDITS)).status).toBe(200);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 100 }, (_, index) =>
        credits.debit(user.sub, { idempotencyKey: `hundred-${index}`, amount: 1, description: 'Test debit', ref: `gen-${index}` }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(60);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused.map((outcome) => outcome.reason.status)).toEqual(Array(40).fill(402));
    expect(await balanceOf(user)).toBe(0);
    // listWholeLedger reads in seq order: every balance_after is the running sum.
    await expectLedgerMatchesBalance(user);
  });

  it('lets exactly 30 of 50 concurrent spending requests over HTTP through against 30 credits', async () => {
    const user = await newCustomer();
    expect((await buy(user, 30 - SIGNUP_CREDITS)).status).toBe(200);
    // A real product photo: a generation that failed (a blank square has no product to cut out) would be refunded
    // while the burst is still running, and let more requests through.
    const product = await tshirtPhoto(300, 350);
    const imageData = `data:image/jpeg;base64,${product.toString('base64')}`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api(twin.apiUrl, 'POST', '/generate-ai-image', {
          user,
          body: { imageData, prompt: 'young female model', imageSize: '1k' },
          headers: { 'idempotency-key': randomUUID() },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(30);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(20);
    for (const answer of refused) expect(answer).toMatchObject({ status: 402, body: { code: 'INSUFFICIENT_CREDITS' } });
    expect(await balanceOf(user)).toBe(0);
    await expectLedgerMatchesBalance(user);
  });

  it('charges a debit retried with the same idempotency key once', async () => {
    const user = await newCustomer();
    const retry = { idempotencyKey: `retry-${randomUUID()}`, amount: 2, description: 'Test debit', ref: 'gen-retry' };
    const results = await Promise.all([credits.debit(user.sub, retry), credits.debit(user.sub, retry), credits.debit(user.sub, retry)]);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(new Set(results.map((result) => result.entry.id)).size).toBe(1);
    expect(await credits.debit(user.sub, retry)).toMatchObject({ replayed: true });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 2);
    await expectLedgerMatchesBalance(user);
  });

  it('refuses to reuse an idempotency key for a different amount', async () => {
    const user = await newCustomer();
    await credits.debit(user.sub, { idempotencyKey: 'reused-key-1', amount: 1, description: 'Test debit', ref: 'gen-a' });
    await expect(credits.debit(user.sub, { idempotencyKey: 'reused-key-1', amount: 3, description: 'Test debit', ref: 'gen-a' })).rejects.toMatchObject({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 1);
  });

  it('refunds a generation once however often the refund is requested', async () => {
    const user = await newCustomer();
    await credits.debit(user.sub, { idempotencyKey: 'refund-debit-1', amount: 3, description: 'Test debit', ref: 'gen-refund' });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS - 3);
    const refunds = await Promise.all(
      Array.from({ length: 8 }, () =>
        credits.refund(user.sub, { debitId: 'debit#refund-debit-1', ref: 'gen-refund', amount: 3, description: 'Refund: generation failed' }),
      ),
    );
    expect(refunds.filter((result) => result && !result.replayed)).toHaveLength(1);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
    const profile = (await api(twin.apiUrl, 'GET', '/profile', { user })).body;
    expect(profile.total_credits_spent).toBe(0);
    await expectLedgerMatchesBalance(user);
  });

  it('never lets a debit take the balance below zero', async () => {
    const user = await newCustomer();
    await expect(credits.debit(user.sub, { idempotencyKey: 'too-much-1', amount: SIGNUP_CREDITS + 1, description: 'Test debit', ref: 'gen-x' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      message: `Insufficient credits: you need ${SIGNUP_CREDITS + 1} credits but only have ${SIGNUP_CREDITS}.`,
    });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });
});

describe('buying credits', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser(twin);
  });

  it('grants a billing package through the local test payment, priced at 0.10 USD a credit', async () => {
    const { status, body } = await buy(user, 170);
    expect(status).toBe(200);
    expect(body).toMatchObject({ credits: 170, amountUsd: 17, newCredits: SIGNUP_CREDITS + 170, payment: { method: 'local-test-payment' } });
    expect(body.transaction).toMatchObject({ transaction_type: 'purchase', amount: 170, balance_after: SIGNUP_CREDITS + 170 });
    const { body: list } = await api(twin.apiUrl, 'GET', '/credit-transactions', { user });
    expect(list.items[0]).toMatchObject({ transaction_type: 'purchase', amount: 170 });
  });

  it('grants a purchase retried with the same key once', async () => {
    const before = await balanceOf(user);
    const key = randomUUID();
    const answers = await Promise.all([buy(user, 7, key), buy(user, 7, key)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await balanceOf(user)).toBe(before + 7);
  });

  it('answers bad purchases with a clear 400 and changes nothing', async () => {
    const before = await balanceOf(user);
    expect(await buy(user, 0)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', error: 'The minimum is 1 credit' } });
    expect(await buy(user, 2.5)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', error: 'Credits must be a whole number' } });
    const noKey = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 5 } });
    expect(noKey).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_REQUIRED' } });
    const notJson = await fetch(`${twin.apiUrl}/credits/purchase`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: '{credits: 5',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ code: 'INVALID_JSON', error: 'The request body is not valid JSON.' });
    expect(await balanceOf(user)).toBe(before);
  });

  it('lists only the newest 10 transactions, newest first', async () => {
    for (let index = 0; index < 11; index++) await buy(user, 1);
    const { body } = await api(twin.apiUrl, 'GET', '/credit-transactions', { user });
    expect(body.items).toHaveLength(10);
    const times = body.items.map((entry: { balance_after: number }) => entry.balance_after);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe('authentication and isolation', () => {
  it('answers 401 without a token, with a tampered token, and with a token of another pool', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile')).status).toBe(401);
    const [header, payload, signature] = user.idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url');
    expect((await api(twin.apiUrl, 'GET', '/profile', { token: `${header}.${forged}.${signature}` })).status).toBe(401);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await api(twin.apiUrl, 'GET', '/profile', { token: unsigned })).status).toBe(401);
    const otherAudience = Buffer.from(JSON.stringify({ ...claims, aud: 'another-client' })).toString('base64url');
    expect((await api(twin.apiUrl, 'GET', '/credit-transactions', { token: `${header}.${otherAudience}.${signature}` })).status).toBe(401);
    expect((await api(twin.apiUrl, 'POST', '/credits/purchase', { body: { credits: 5 }, headers: { 'idempotency-key': randomUUID() } })).status).toBe(401);
  });

  it('never shows user B anything of user A', async () => {
    const a = await createUser(twin, undefined);
    const b = await createUser(twin, undefined);
    await buy(a, 42);
    const bProfile = await api(twin.apiUrl, 'GET', `/profile?id=${a.sub}&user_id=${a.sub}`, { user: b, headers: { 'x-user-id': a.sub } });
    expect(bProfile.body).toMatchObject({ id: b.sub, email: b.email, current_credits: SIGNUP_CREDITS });
    const bLedger = await api(twin.apiUrl, 'GET', `/credit-transactions?user_id=${a.sub}`, { user: b });
    expect(bLedger.body.items.every((entry: { user_id: string }) => entry.user_id === b.sub)).toBe(true);
    expect(bLedger.body.items.some((entry: { amount: number }) => entry.amount === 42)).toBe(false);
    expect(await balanceOf(a)).toBe(SIGNUP_CREDITS + 42);
  });

  it('serves the active pricing tiers to anyone, ordered by feature type then sort order', async () => {
    const { status, body } = await api(twin.apiUrl, 'GET', '/pricing-tiers');
    expect(status).toBe(200);
    expect(body.items.map((tier: { id: string }) => tier.id)).toEqual([
      'batch-photo',
      'image-edit',
      'image-generation',
      'packshot',
      'upscale-2k',
      'upscale-4k',
      'upscale-8k',
      'video-5s',
      'video-8s',
      'video-16s',
    ]);
    expect(Object.fromEntries(body.items.map((tier: { id: string; credits_cost: number }) => [tier.id, tier.credits_cost]))).toMatchObject({
      'upscale-2k': 1,
      'upscale-4k': 2,
      'upscale-8k': 3,
      'image-generation': 1,
      packshot: 1,
      'video-5s': 1,
      'video-8s': 1,
      'video-16s': 1,
    });
  });
});
