// The chaos suite's short form (the full one is `npm run chaos`): 40 operations from 3 users against a twin of its own
// with the local engine's faults on and one SIGKILL and restart of the twin half-way; then the money audit of
// test/support/chaos-audit.ts must find nothing: every record ended, every failure and cancel refunded exactly once and
// nothing else, each balance the sum of its ledger and equal to grants + purchases − delivered, no 5xx but during the kill.
import { describe, expect, it } from 'vitest';
import { formatReport, runChaos } from '../support/chaos.js';

describe('chaos: a mixed load with injected faults and a hard kill of the twin', () => {
  it('leaves every record ended and every credit accounted for', async () => {
    const report = await runChaos({
      users: 3,
      operations: 40,
      seed: 15,
      killAfter: 0.5,
      // Higher rates than the full run, so that 40 operations meet every kind of fault.
      faults: 'transient=0.12,permanent=0.12,slow=0.06,crash=0.1',
      faultsAfterKill: 'transient=0.12,permanent=0.12,crash=0.1',
      settleTimeoutMs: 150_000,
      log: (line) => process.env.CHAOS_LOG && console.log(`[chaos] ${line}`),
    });
    console.log(formatReport(report));
    expect(report.violations).toEqual([]);
    // The run really did what it claims: faults were injected, something failed and was refunded, the twin was killed.
    expect(report.kill).toBeDefined();
    expect(report.faults.permanent + report.faults.crash).toBeGreaterThan(0);
    expect(report.credits.refunds).toBeGreaterThan(0);
    expect(report.records.failed).toBeGreaterThan(0);
    expect(report.credits.delivered).toBeGreaterThan(0);
  }, 330_000);
});
