// The ledger under DynamoDB's own faults, injected: a transaction that collides with another (TransactionConflict)
// or is throttled is retried and applies once; one that cannot get through before its deadline answers a retryable
// 503 and charges nothing.
import { GetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

process.env.TABLE_PROFILES = 'profiles';
process.env.TABLE_LEDGER = 'ledger';
const { debit } = await import('../../lambdas/domain/credits.js');
const { dynamo } = await import('../../lambdas/data/dynamo.js');

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const profile = { id: 'user-1', current_credits: 5, ledger_seq: 1, total_credits_spent: 0, email: 'a@example.com', plan_id: 'free_trial', created_at: 'x', last_login: 'x' };

let ddb: ReturnType<typeof mockClient>;
beforeEach(() => {
  ddb = mockClient(dynamo as unknown as DynamoDBDocumentClient);
  ddb.on(GetCommand, { TableName: 'profiles' }).resolves({ Item: profile });
  ddb.on(GetCommand, { TableName: 'ledger' }).resolves({});
});
afterEach(() => {
  ddb.restore();
  vi.useRealTimers();
});

const charge = (key: string) => debit('user-1', { idempotencyKey: key, amount: 1, description: 'Test', ref: 'record-1' });

describe('a debit under injected faults', () => {
  it('retries a TransactionConflict and applies once, with the exact balance_after', async () => {
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(['TransactionConflict', 'None'])).resolves({});
    const result = await charge('conflict-key-1');
    expect(result).toMatchObject({ replayed: false, entry: { amount: -1, balance_after: 4 } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('retries a throttled transaction and applies once', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(['ThrottlingError', 'None'])).rejectsOnce(throttled).resolves({});
    expect(await charge('throttle-key-1')).toMatchObject({ replayed: false, entry: { amount: -1 } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('answers a retryable 503 and charges nothing when conflicts outlast its deadline', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(['TransactionConflict', 'None']));
    const started = Date.now();
    await expect(charge('busy-key-1')).rejects.toMatchObject({ status: 503, code: 'LEDGER_BUSY', headers: { 'retry-after': '2' } });
    // Well inside API Gateway's 29 s.
    expect(Date.now() - started).toBeLessThan(12_000);
  }, 20_000);
});
