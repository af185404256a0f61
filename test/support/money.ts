// The checks every money test makes over HTTP: the balance the API answers, the whole ledger summing to it, and a
// spending call with its Idempotency-Key. The ledger module is loaded on first use, once the twin's env is set.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { api, type ApiAnswer } from './api.js';
import type { CreditTransaction } from '../../lambdas/contracts/api.js';
import type { TestUser } from './users.js';

export interface MoneyChecks {
  balanceOf(user: TestUser): Promise<number>;
  /** Asserts that the user's whole ledger sums to the balance, and answers the entries. */
  expectLedgerMatchesBalance(user: TestUser): Promise<CreditTransaction[]>;
  post(user: TestUser, path: string, body: unknown, key?: string): Promise<ApiAnswer>;
}

/** `apiUrl` may be a function, for a twin that starts in `beforeAll`. */
export function moneyChecks(apiUrlOf: string | (() => string)): MoneyChecks {
  const apiUrl = () => (typeof apiUrlOf === 'string' ? apiUrlOf : apiUrlOf());
  const balanceOf = async (user: TestUser) => {
    const { status, body } = await api(apiUrl(), 'GET', '/profile', { user });
    expect(status).toBe(200);
    return body.current_credits as number;
  };
  return {
    balanceOf,
    async expectLedgerMatchesBalance(user) {
      const { listWholeLedger } = await import('../../lambdas/data/credits-repo.js');
      const entries = await listWholeLedger(user.sub);
      expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(await balanceOf(user));
      return entries;
    },
    post: (user, path, body, key = randomUUID()) => api(apiUrl(), 'POST', path, { user, body, headers: { 'idempotency-key': key } }),
  };
}
