// On the twin each function has credentials of its own, an environment holding only the names of what its declaration
// grants it, and every emulator refuses its requests beyond those grants (lib/local/grants.ts), as IAM does in the
// cloud: the variable is missing, or the service answers AccessDenied. These are the checks themselves; the emulators
// apply them at the wire (test/integration/twin-wire-grants.test.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableEnvName } from '../../lambdas/data/tables.js';
import { RECONCILER_FUNCTION, workflowEnvName } from '../../lambdas/workflows.js';
import { deployedFunction, deployedFunctions, type DeployedFunction } from '../../lib/local/deployed-functions.js';
import {
  connectionsRefusal,
  dynamoDbRefusal,
  functionCredentials,
  functionEnvironment,
  s3Refusal,
  stepFunctionsRefusal,
  TwinAccess,
  userPoolRefusal,
} from '../../lib/local/grants.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';

const ARN = (name: string) => `arn:aws:states:us-east-1:000000000000:stateMachine:${name}`;
const twinEnvironment = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
  NODE_OPTIONS: '--import tsx',
  [tableEnvName('clothingItems')]: 'twin-clothing-items',
  [tableEnvName('ledger')]: 'twin-ledger',
  [workflowEnvName('generation')]: ARN('twin-generation'),
};

function accessWith(functions: DeployedFunction[] = deployedFunctions()): TwinAccess {
  const access = new TwinAccess(LOCAL_CREDENTIALS, functions);
  Object.assign(access.resources, {
    tables: { clothingItems: 'twin-clothing-items', ledger: 'twin-ledger', profiles: 'twin-profiles', generations: 'twin-generations', batches: 'twin-batches' },
    buckets: { clothingImages: 'twin-clothing-images', results: 'twin-results' },
    workflows: { generation: ARN('twin-generation'), deleteAccount: ARN('twin-delete-account') },
    userPoolId: 'us-east-1_twin',
  });
  return access;
}
const access = accessWith();
const principal = (name: string) => access.principal(functionCredentials(name).accessKeyId)!;

describe('a function on the twin', () => {
  it('has credentials of its own, shaped like a role session, which the twin knows and tells apart', () => {
    const own = functionCredentials('list-clothing-items');
    expect(own.accessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(own.sessionToken).toHaveLength(LOCAL_CREDENTIALS.sessionToken.length);
    expect(functionCredentials('get-profile').accessKeyId).not.toBe(own.accessKeyId);
    expect(principal('list-clothing-items').name).toBe('list-clothing-items');
    expect(access.principal('ASIAUNKNOWNKEY000000')).toBeUndefined();
  });

  it('sees in its environment only the tables, buckets and workflows it declares, with its own credentials', () => {
    const environment = functionEnvironment(deployedFunction('list-clothing-items'), twinEnvironment);
    expect(environment[tableEnvName('clothingItems')]).toBe('twin-clothing-items');
    expect(environment[tableEnvName('ledger')]).toBeUndefined();
    expect(environment[workflowEnvName('generation')]).toBeUndefined();
    expect(environment.AWS_REGION).toBe('us-east-1');
    expect(environment.AWS_ACCESS_KEY_ID).toBe(functionCredentials('list-clothing-items').accessKeyId);
    // The twin's own Node options (a TypeScript loader) are not the function's.
    expect(environment.NODE_OPTIONS).toBeUndefined();
  });

  it('every handler module is deployed as some function, so none runs with more than a declaration grants', () => {
    const handlers = readdirSync(join(import.meta.dirname, '../../lambdas/handlers')).map((file) => file.replace(/\.ts$/, ''));
    const deployed = new Set(deployedFunctions().map((fn) => fn.spec.handler));
    expect(handlers.filter((handler) => !deployed.has(handler))).toEqual([]);
  });
});

describe('DynamoDB', () => {
  const get = (table: string) => ({ TableName: table, Key: { user_id: { S: 'u' } } });
  it('lets a function read a table it reads, not write it, and not touch a table it does not declare', () => {
    expect(dynamoDbRefusal(principal('list-clothing-items'), 'GetItem', get('twin-clothing-items'), access.resources)).toBeUndefined();
    expect(dynamoDbRefusal(principal('list-clothing-items'), 'PutItem', get('twin-clothing-items'), access.resources)?.message).toMatch(
      /assumed-role\/list-clothing-items-role\/list-clothing-items is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table\/twin-clothing-items/,
    );
    expect(dynamoDbRefusal(principal('list-clothing-items'), 'GetItem', get('twin-ledger'), access.resources)?.action).toBe('dynamodb:GetItem');
    expect(dynamoDbRefusal(principal('register-clothing-item'), 'PutItem', get('twin-clothing-items'), access.resources)).toBeUndefined();
    // Describing a table is no action any function is granted.
    expect(dynamoDbRefusal(principal('register-clothing-item'), 'DescribeTable', get('twin-clothing-items'), access.resources)?.action).toBe('dynamodb:DescribeTable');
  });

  it('checks each item of a transaction with its own action, as IAM does', () => {
    const transaction = (table: string, kind: 'Put' | 'ConditionCheck') => ({ TransactItems: [{ [kind]: { TableName: table } }, { Put: { TableName: 'twin-ledger' } }] });
    // purchase-credits writes the ledger and the profiles, and may not write a clothing item.
    expect(dynamoDbRefusal(principal('purchase-credits'), 'TransactWriteItems', transaction('twin-profiles', 'Put'), access.resources)).toBeUndefined();
    expect(dynamoDbRefusal(principal('purchase-credits'), 'TransactWriteItems', transaction('twin-clothing-items', 'Put'), access.resources)?.resource).toMatch(/twin-clothing-items$/);
    // A condition on a table it only reads is a read (ConditionCheckItem).
    // batch-FailPhoto refunds (the ledger, written) a photo of a batch it only reads.
    expect(dynamoDbRefusal(principal('batch-FailPhoto'), 'TransactWriteItems', transaction('twin-batches', 'ConditionCheck'), access.resources)).toBeUndefined();
    expect(dynamoDbRefusal(principal('batch-FailPhoto'), 'TransactWriteItems', transaction('twin-batches', 'Put'), access.resources)?.action).toBe('dynamodb:PutItem');
  });

  it('lets the twin itself do anything', () => {
    const twin = access.principal(LOCAL_CREDENTIALS.accessKeyId)!;
    expect(dynamoDbRefusal(twin, 'DescribeTable', get('twin-ledger'), access.resources)).toBeUndefined();
  });
});

describe('S3, header-signed or presigned alike', () => {
  const request = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers });
  it('lets a function that signs uploads put (and tag) into its bucket, and read nothing', () => {
    const signer = principal('create-clothing-upload-url');
    expect(s3Refusal(signer, request('PUT', '/twin-clothing-images/u/a.png?X-Amz-Signature=x', { 'x-amz-tagging': 'upload=pending' }), access.resources)).toBeUndefined();
    expect(s3Refusal(signer, request('GET', '/twin-clothing-images/u/a.png'), access.resources)?.action).toBe('s3:GetObject');
    expect(s3Refusal(signer, request('GET', '/twin-clothing-images?list-type=2'), access.resources)?.action).toBe('s3:ListBucket');
    expect(s3Refusal(principal('list-credit-transactions'), request('GET', '/twin-clothing-images/u/a.png'), access.resources)?.resource).toBe('arn:aws:s3:::twin-clothing-images/u/a.png');
  });

  it('holds a copy to the read grant of its source too', () => {
    const writer = deployedFunctions().find((fn) => fn.spec.buckets?.results === 'write' && !fn.spec.buckets?.clothingImages)!;
    const copy = (source: string) => request('PUT', '/twin-results/u/copy.png', { 'x-amz-copy-source': source });
    expect(s3Refusal(principal(writer.name), copy('/twin-results/u/a.png'), access.resources)).toBeUndefined();
    expect(s3Refusal(principal(writer.name), copy('/twin-clothing-images/u/a.png'), access.resources)?.action).toBe('s3:GetObject');
  });
});

describe('Step Functions', () => {
  const execution = `${ARN('twin-generation').replace(':stateMachine:', ':execution:')}:g-1`;
  it('lets the reconciler look up the executions of the work it settles, and nothing more; without the grant, not even that', () => {
    const reconciler = principal(RECONCILER_FUNCTION.handler);
    expect(stepFunctionsRefusal(reconciler, 'DescribeExecution', { executionArn: execution }, access.resources)).toBeUndefined();
    expect(stepFunctionsRefusal(reconciler, 'StopExecution', { executionArn: execution }, access.resources)?.action).toBe('states:StopExecution');
    expect(stepFunctionsRefusal(reconciler, 'StartExecution', { stateMachineArn: ARN('twin-generation') }, access.resources)?.action).toBe('states:StartExecution');

    // The same function with the grant taken away, as it was declared before: its lookups are refused.
    const withoutGrant = deployedFunctions().map((fn) => (fn.name === RECONCILER_FUNCTION.handler ? { ...fn, spec: { ...fn.spec, observes: [] } } : fn));
    const narrowed = accessWith(withoutGrant);
    const refused = stepFunctionsRefusal(narrowed.principal(functionCredentials(RECONCILER_FUNCTION.handler).accessKeyId)!, 'DescribeExecution', { executionArn: execution }, narrowed.resources);
    expect(refused?.action).toBe('states:DescribeExecution');
  });

  it('lets a route start, describe and stop only the workflow it uses', () => {
    const starter = principal('generate-ai-image');
    expect(stepFunctionsRefusal(starter, 'StartExecution', { stateMachineArn: ARN('twin-generation') }, access.resources)).toBeUndefined();
    expect(stepFunctionsRefusal(starter, 'StartExecution', { stateMachineArn: ARN('twin-delete-account') }, access.resources)?.resource).toBe(ARN('twin-delete-account'));
  });
});

describe('the user pool and the @connections API', () => {
  it('lets a function call only the user-pool actions it declares, on the twin’s pool', () => {
    expect(userPoolRefusal(principal('get-profile'), 'ListUsers', { UserPoolId: 'us-east-1_twin' }, access.resources)).toBeUndefined();
    expect(userPoolRefusal(principal('get-profile'), 'AdminDeleteUser', { UserPoolId: 'us-east-1_twin' }, access.resources)?.action).toBe('cognito-idp:AdminDeleteUser');
    expect(userPoolRefusal(principal('get-profile'), 'ListUsers', { UserPoolId: 'us-east-1_other' }, access.resources)?.resource).toMatch(/userpool\/us-east-1_other$/);
    expect(userPoolRefusal(principal('list-clothing-items'), 'ListUsers', { UserPoolId: 'us-east-1_twin' }, access.resources)?.action).toBe('cognito-idp:ListUsers');
  });

  it('lets the fan-out post to connections, and no one else, nor anything else', () => {
    expect(connectionsRefusal(principal('ws-fan-out'), 'POST', '/@connections/abc')).toBeUndefined();
    expect(connectionsRefusal(principal('ws-fan-out'), 'DELETE', '/@connections/abc')?.action).toBe('execute-api:ManageConnections');
    expect(connectionsRefusal(principal('get-profile'), 'POST', '/@connections/abc')?.action).toBe('execute-api:ManageConnections');
  });
});
