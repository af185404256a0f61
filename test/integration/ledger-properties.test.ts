// Property test of the money rules, on DynamoDB Local through the one spending flow and the ledger: random sequences
// of spends, true replays, keys reused on another operation or body, cancels, provider failures and purchases. After
// every sequence the balance is the ledger's sum, no debit got back more than it took, and the balance is exactly
// what was granted and bought less what is still spent (never more: no credit appears from nothing).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const credits = await import('../../lambdas/domain/credits.js');
const { spend } = await import('../../lambdas/domain/spending.js');

const OPERATIONS = ['generate-ai-image', 'generate-video', 'edit-ai-image'] as const;

type Step =
  | { kind: 'spend'; operation: number; key: number; body: number; cost: number }
  | { kind: 'cancel'; key: number }
  | { kind: 'fail'; key: number }
  | { kind: 'purchase'; credits: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('spend' as const), operation: fc.nat(2), key: fc.nat(4), body: fc.nat(1), cost: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), key: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fail' as const), key: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('purchase' as const), credits: fc.integer({ min: 1, max: 4 }) }) },
);

interface Charge {
  operation: number;
  body: number;
  cost: number;
  refunded: number;
  failed: boolean;
}

async function run(steps: Step[]): Promise<void> {
  const userId = `prop-${randomUUID()}`;
  await ledgerRepo.createProfile(userId, `${userId}@example.com`, new Date().toISOString());
  const keys = Array.from({ length: 5 }, () => randomUUID());
  const charges = new Map<number, Charge>();
  let bought = 0;

  for (const current of steps) {
    if (current.kind === 'purchase') {
      await credits.purchase(userId, { paymentId: randomUUID(), credits: current.credits, description: 'Test purchase' });
      bought += current.credits;
      continue;
    }
    const charge = charges.get(current.key);
    const debitId = credits.debitIdOf(keys[current.key]!);
    if (current.kind === 'spend') {
      const request = { userId, operation: OPERATIONS[current.operation]!, idempotencyKey: keys[current.key]!, body: { image: current.body } };
      const attempt = spend(request, { cost: current.cost, description: 'Test spend', record: async (id) => ({ id }), start: async () => undefined });
      if (!charge) {
        const expectedBalance = SIGNUP_CREDITS + bought - spentNow(charges);
        if (expectedBalance < current.cost) {
          await expect(attempt).rejects.toMatchObject({ status: 402 });
        } else {
          await attempt;
          charges.set(current.key, { operation: current.operation, body: current.body, cost: current.cost, refunded: 0, failed: false });
        }
      } else if (charge.operation === current.operation && charge.body === current.body && charge.cost === current.cost) {
        expect((await attempt).replayed).toBe(true);
      } else {
        await expect(attempt).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
      }
    } else if (current.kind === 'cancel' && charge) {
      // A cancel gives back what is left of the debit, once.
      const left = charge.cost - charge.refunded;
      if (left > 0) {
        const result = await credits.refund(userId, { debitId, ref: `cancel-${current.key}`, amount: left, description: 'Test cancel' });
        if (result && !result.replayed) charge.refunded += left;
      }
    } else if (current.kind === 'fail' && charge) {
      // A provider failure refunds one credit of the work, once per record; past what the debit took, nothing.
      const result = await credits.refund(userId, { debitId, ref: `fail-${current.key}`, amount: 1, description: 'Test failure' });
      const expectApplied = !charge.failed && charge.refunded + 1 <= charge.cost;
      if (expectApplied) {
        expect(result?.replayed).toBe(false);
        charge.refunded += 1;
        charge.failed = true;
      } else if (!charge.failed) {
        expect(result).toBeUndefined();
      } else {
        // The same record failing again: its refund is the one already made.
        expect(result?.replayed).toBe(true);
      }
    } else {
      // A cancel or a failure of work that was never charged (no debit under its key): nothing comes back.
      expect(await credits.refund(userId, { debitId, ref: `${current.kind}-${current.key}`, amount: 1, description: 'Test refund of nothing' })).toBeUndefined();
    }
  }

  const entries = await ledgerRepo.listWholeLedgerItems(userId);
  const profile = await ledgerRepo.getProfile(userId);
  const sum = entries.reduce((total, entry) => total + entry.amount, 0);
  expect(profile!.current_credits).toBe(sum);
  for (const debit of entries.filter((entry) => entry.transaction_type === 'debit')) {
    const refunds = entries.filter((entry) => entry.refund_of === debit.id).reduce((total, entry) => total + entry.amount, 0);
    expect(refunds).toBeLessThanOrEqual(-debit.amount);
  }
  expect(sum).toBe(SIGNUP_CREDITS + bought - spentNow(charges));
}

const spentNow = (charges: Map<number, Charge>) => [...charges.values()].reduce((total, charge) => total + charge.cost - charge.refunded, 0);

describe('the ledger under random sequences of spending, replays, reuse, cancels, failures and purchases', () => {
  it('never creates a credit and keeps every invariant', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), run), { seed: 20261123, numRuns: 40 });
  });
});
