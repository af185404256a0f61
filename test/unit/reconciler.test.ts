// The reconciler's ledger audit on hand-made ledgers, and the workflow timeouts it relies on against the ASL files.
import { describe, expect, it } from 'vitest';
import type { LedgerItem } from '../../lambdas/data/credits-repo.js';
import { ledgerProblems } from '../../lambdas/domain/operations/reconciler.js';
import { EXPORT_LEASE_SECONDS } from '../../lambdas/contracts/catalog.js';
import { WORKFLOW_TIMEOUT_SECONDS } from '../../lambdas/workflows.js';
import { readAsl } from '../../lib/local/task-samples.js';

let seq = 0;
const entry = (fields: Partial<LedgerItem> & Pick<LedgerItem, 'id' | 'transaction_type' | 'amount' | 'balance_after'>): LedgerItem => ({
  user_id: 'u1',
  description: fields.id,
  created_at: '2026-01-01T00:00:00.000Z',
  seq: ++seq,
  ...fields,
});

function honestLedger(): LedgerItem[] {
  seq = 0;
  return [
    entry({ id: 'grant#signup', transaction_type: 'signup_bonus', amount: 10, balance_after: 10 }),
    entry({ id: 'debit#a', transaction_type: 'debit', amount: -4, balance_after: 6, refundable: 1 }),
    entry({ id: 'refund#a1', transaction_type: 'refund', amount: 3, balance_after: 9, refund_of: 'debit#a' }),
    entry({ id: 'debit#b', transaction_type: 'debit', amount: -2, balance_after: 7, refundable: 2 }),
  ];
}

describe('ledger audit', () => {
  it('finds nothing wrong with an honest ledger', () => {
    expect(ledgerProblems(7, honestLedger())).toEqual([]);
  });

  it('names a balance that is not the sum of the entries', () => {
    expect(ledgerProblems(8, honestLedger())).toEqual(['balance 8, sum of entries 7']);
  });

  it('names an entry whose balance_after is not the running sum', () => {
    const ledger = honestLedger();
    ledger[2]!.balance_after = 10;
    expect(ledgerProblems(7, ledger)).toEqual(['entry refund#a1 (seq 3): balance_after 10, running sum 9']);
  });

  it('names a debit refunded more than it took, and a refundable that does not match its refunds', () => {
    const ledger = honestLedger();
    ledger.push(entry({ id: 'refund#a2', transaction_type: 'refund', amount: 2, balance_after: 9, refund_of: 'debit#a' }));
    const problems = ledgerProblems(9, ledger);
    expect(problems).toContain('debit debit#a of 4 refunded 5');
    expect(problems).toContain('debit debit#a: refundable 1, expected -1');
  });

  it('names refunds of a debit that does not exist', () => {
    const ledger = honestLedger();
    ledger.push(entry({ id: 'refund#x', transaction_type: 'refund', amount: 1, balance_after: 8, refund_of: 'debit#missing' }));
    expect(ledgerProblems(8, ledger)).toEqual(['refunds of 1 name debit debit#missing, which does not exist']);
  });
});

describe('workflow timeouts', () => {
  it('are the TimeoutSeconds of the ASL files', () => {
    for (const [name, seconds] of Object.entries(WORKFLOW_TIMEOUT_SECONDS)) {
      expect((readAsl(name as keyof typeof WORKFLOW_TIMEOUT_SECONDS) as { TimeoutSeconds?: number }).TimeoutSeconds, name).toBe(seconds);
    }
  });

  it('bound the export place: an export holds it no longer than its workflow may run', () => {
    expect(EXPORT_LEASE_SECONDS).toBe(WORKFLOW_TIMEOUT_SECONDS.accountExport);
  });
});
