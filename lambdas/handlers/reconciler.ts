// The scheduled reconciler (EventBridge in the cloud, a timer on the twin): see lambdas/domain/operations/reconciler.ts.
import * as z from 'zod';
import { log } from '../core/log.js';
import { reconcile, type ReconcileReport } from '../domain/operations/reconciler.js';

/** The schedule sends an EventBridge event (ignored but for these optional fields); the twin sends its own. */
export const ReconcilerInput = z
  .object({
    criterion: z.enum(['past-timeout', 'no-execution']).optional(),
    auditWindowMinutes: z.number().int().positive().max(7 * 24 * 60).optional(),
  })
  .passthrough();
export type ReconcilerInput = z.infer<typeof ReconcilerInput>;

export const handler = async (event: unknown): Promise<Omit<ReconcileReport, 'drifted'> & { drifted: string[] }> => {
  const input = ReconcilerInput.parse(event ?? {});
  const report = await reconcile({ criterion: { kind: input.criterion ?? 'past-timeout' }, auditWindowMinutes: input.auditWindowMinutes });
  log.info('reconciler run', { settled: report.settled.length, usersAudited: report.usersAudited, drifted: report.drifted.length });
  return { ...report, drifted: report.drifted.map((drift) => drift.userId) };
};
