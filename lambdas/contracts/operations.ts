// The reconciler's input. The schedule sends an EventBridge Scheduled Event (these fields absent: the cloud's
// criterion); the twin sends its own, choosing "no execution exists" at its start.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';

export const ReconcilerInput = /* @__PURE__ */ (() => z
  .object({
    criterion: z.enum(['past-timeout', 'no-execution']).optional(),
    /** Ledgers that moved this many minutes back are audited. */
    auditWindowMinutes: z.number().int().positive().max(7 * 24 * 60).optional(),
  })
  .passthrough())();
export type ReconcilerInput = z.infer<typeof ReconcilerInput>;
