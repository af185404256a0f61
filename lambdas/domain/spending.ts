// TEMP spending shim: the lead's lambdas/domain/spending.ts replaces this file. Same signature, implemented crudely
// on today's debit in domain/credits.ts so the batch route can be built and tested before it lands.
import { createHash } from 'node:crypto';
import { debit } from './credits.js';

export async function spend<R>(
  request: { userId: string; operation: string; idempotencyKey: string; body: unknown },
  plan: {
    cost: number;
    description: string;
    record: (recordId: string, debitId: string) => Promise<R>;
    start: (record: R) => Promise<void>;
  },
): Promise<{ recordId: string; record: R; balanceAfter: number; replayed: boolean }> {
  const recordId = createHash('sha256').update(`${request.userId}\n${request.operation}\n${request.idempotencyKey}`).digest('hex').slice(0, 32);
  const charge = await debit(request.userId, { idempotencyKey: request.idempotencyKey, amount: plan.cost, description: plan.description, ref: recordId });
  const record = await plan.record(recordId, `debit#${request.idempotencyKey}`);
  await plan.start(record);
  return { recordId, record, balanceAfter: charge.entry.balance_after, replayed: charge.replayed };
}
