// On the twin each function sees only what its declaration grants it (lib/local/grants.ts): the environment of its
// tables, buckets and workflows, and SDK calls within its grants and access levels. Taking a grant away makes the
// twin fail as the cloud would: the variable is missing, or the call is refused with AccessDenied.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, SFNClient, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { bucketEnvName, tableEnvName, tableName } from '../../lambdas/data/tables.js';
import { RECONCILER_FUNCTION, workflowEnvName } from '../../lambdas/workflows.js';
import { declaredFunctions, grantsOf, runAsFunction, type FunctionDeclaration } from '../../lib/local/grants.js';

// Nothing listens on port 1: a call the grants let through fails on the connection, never with AccessDenied.
const NOWHERE = 'http://127.0.0.1:1';
const ARN = (name: string) => `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`;
Object.assign(process.env, {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'ASIATEST',
  AWS_SECRET_ACCESS_KEY: 'secret',
  AWS_ENDPOINT_URL_SFN: NOWHERE,
  [tableEnvName('clothingItems')]: 'twin-clothing-items',
  [tableEnvName('ledger')]: 'twin-ledger',
  [tableEnvName('profiles')]: 'twin-profiles',
  [bucketEnvName('clothingImages')]: 'twin-clothing-images',
  [workflowEnvName('generation')]: ARN('twin-generation'),
  [workflowEnvName('deleteAccount')]: ARN('twin-delete-account'),
});
const { executionArn, executionStatus } = await import('../../lambdas/core/sfn.js');

const config = { endpoint: NOWHERE, region: 'us-east-1', maxAttempts: 1 };
const documents = DynamoDBDocumentClient.from(new DynamoDBClient(config));
const s3 = new S3Client({ ...config, forcePathStyle: true });
const sfn = new SFNClient(config);

/**
 * How a call ends: AccessDenied's name, a missing variable's message, or "reached" when it got past the grants to the
 * (absent) server.
 */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'answered';
  } catch (error) {
    const { name, message } = error as Error;
    if (/AccessDenied/.test(name)) return name;
    return /Missing configuration/.test(message) ? message : 'reached';
  }
}

describe('the environment of a function', () => {
  it('names only the tables, buckets and workflows it declares', () => {
    runAsFunction('list-clothing-items', () => {
      expect(tableName('clothingItems')).toBe('twin-clothing-items');
      expect(() => tableName('ledger')).toThrow('Missing configuration: environment variable TABLE_LEDGER is not set');
      expect(process.env[workflowEnvName('generation')]).toBeUndefined();
      expect(Object.keys(process.env)).not.toContain(tableEnvName('ledger'));
      expect(process.env.AWS_REGION).toBe('us-east-1');
    });
    // Outside any function (the twin itself, its tests) everything is there.
    expect(tableName('ledger')).toBe('twin-ledger');
  });

  it('every handler module is declared, so none runs with more than its grants', () => {
    const handlers = readdirSync(join(import.meta.dirname, '../../lambdas/handlers')).map((file) => file.replace(/\.ts$/, ''));
    expect(handlers.filter((handler) => !grantsOf(handler))).toEqual([]);
  });
});

describe('SDK calls of a function', () => {
  it('a table it reads can be read, not written; a table it does not declare, neither', async () => {
    const asList = <T>(call: () => Promise<T>) => runAsFunction('list-clothing-items', call);
    expect(await asList(() => outcome(() => documents.send(new GetCommand({ TableName: 'twin-clothing-items', Key: { user_id: 'u', id: 'i' } }))))).toBe('reached');
    expect(await asList(() => outcome(() => documents.send(new PutCommand({ TableName: 'twin-clothing-items', Item: { user_id: 'u', id: 'i' } }))))).toBe('AccessDeniedException');
    expect(await asList(() => outcome(() => documents.send(new GetCommand({ TableName: 'twin-ledger', Key: { user_id: 'u', id: 'i' } }))))).toBe('AccessDeniedException');
    // A transaction is refused when any of its tables is.
    const transaction = new TransactWriteCommand({
      TransactItems: [{ Put: { TableName: 'twin-ledger', Item: { user_id: 'u', id: 'i' } } }, { Put: { TableName: 'twin-clothing-items', Item: { user_id: 'u', id: 'i' } } }],
    });
    expect(await runAsFunction('purchase-credits', () => outcome(() => documents.send(transaction)))).toBe('AccessDeniedException');
    expect(await runAsFunction('register-clothing-item', () => outcome(() => documents.send(new PutCommand({ TableName: 'twin-clothing-items', Item: { user_id: 'u', id: 'i' } }))))).toBe('reached');
  });

  it('a bucket it may only put into can be put into, not read', async () => {
    const put = new PutObjectCommand({ Bucket: 'twin-clothing-images', Key: 'u/a.png', Body: 'x' });
    const get = new GetObjectCommand({ Bucket: 'twin-clothing-images', Key: 'u/a.png' });
    expect(await runAsFunction('create-clothing-upload-url', () => outcome(() => s3.send(put)))).toBe('reached');
    expect(await runAsFunction('create-clothing-upload-url', () => outcome(() => s3.send(get)))).toBe('AccessDenied');
    expect(await runAsFunction('list-credit-transactions', () => outcome(() => s3.send(get)))).toBe('AccessDenied');
  });

  it('the reconciler may look up the executions of the work it settles; without those grants it fails', async () => {
    const lookUp = () => outcome(() => executionStatus(executionArn('generation', 'g-1')));
    expect(await runAsFunction(RECONCILER_FUNCTION.handler, lookUp)).toBe('reached');

    // The same function with the grant taken away, as it was declared before: its `no-execution` path fails.
    const withoutGrant: FunctionDeclaration[] = declaredFunctions().map((declaration) =>
      declaration.handler === RECONCILER_FUNCTION.handler ? { ...declaration, observes: [] } : declaration,
    );
    runAsFunction(RECONCILER_FUNCTION.handler, () => expect(() => executionArn('generation', 'g-1')).toThrow('WORKFLOW_GENERATION_ARN is not set'), withoutGrant);
    const describe = new DescribeExecutionCommand({ executionArn: `${ARN('twin-generation').replace(':stateMachine:', ':execution:')}:g-1` });
    expect(await runAsFunction(RECONCILER_FUNCTION.handler, () => outcome(() => sfn.send(describe)), withoutGrant)).toBe('AccessDeniedException');
    expect(await runAsFunction(RECONCILER_FUNCTION.handler, () => outcome(() => sfn.send(describe)))).toBe('reached');
    // It only looks: stopping a generation's execution is not its to do.
    const stop = new StopExecutionCommand({ executionArn: describe.input.executionArn });
    expect(await runAsFunction(RECONCILER_FUNCTION.handler, () => outcome(() => sfn.send(stop)))).toBe('AccessDeniedException');
  });

  it('the reconciler is granted the workflow of every kind of work it settles', async () => {
    const { IN_FLIGHT_KINDS } = await import('../../lambdas/domain/operations/reconciler.js');
    expect(RECONCILER_FUNCTION.observes).toEqual(expect.arrayContaining(IN_FLIGHT_KINDS.map((kind) => kind.workflow)));
    // Loading the reconciler's domain (the ledger, the settle paths) takes a while on a busy machine.
  }, 60_000);
});
