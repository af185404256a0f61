// The scheduled reconciler (EventBridge in the cloud, a timer on the twin): see lambdas/domain/operations/reconciler.ts.
import { ReconcilerInput } from '../contracts/operations.js';
import { log } from '../core/log.js';
import { reconcile, type ReconcileReport } from '../domain/operations/reconciler.js';
import { nonHttpFunction } from '../core/task.js';

export const handler = nonHttpFunction('reconciler', async (event: unknown): Promise<Omit<ReconcileReport, 'drifted'> & { drifted: string[] }> => {
  const input = ReconcilerInput.parse(event ?? {});
  const report = await reconcile({ criterion: { kind: input.criterion ?? 'past-timeout' }, auditWindowMinutes: input.auditWindowMinutes });
  log.info('reconciler run', { settled: report.settled.length, usersAudited: report.usersAudited, drifted: report.drifted.length });
  return { ...report, drifted: report.drifted.map((drift) => drift.userId) };
});
