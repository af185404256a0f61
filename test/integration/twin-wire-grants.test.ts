// The twin's services refuse what AWS refuses, at the wire: the Step Functions API and cognito-local's IAM-authorized
// operations answer no unsigned call and no call signed with credentials the twin does not know, and every service
// holds a function's credentials (lib/local/grants.ts) to what its declaration grants it — presigned S3 URLs included,
// which are checked against the grants of the function that signed them.
import { CognitoIdentityProviderClient, AdminDeleteUserCommand, ListUsersCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, inject, it } from 'vitest';
import { tableEnvName } from '../../lambdas/data/tables.js';
import { RECONCILER_FUNCTION, workflowEnvName } from '../../lambdas/workflows.js';
import { functionCredentials } from '../../lib/local/grants.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { productJpeg, uploadFile } from '../support/uploads.js';
import { createUser, uniqueEmail } from '../support/users.js';

const twin = inject('twin');
const region = twin.env.AWS_REGION!;
const STRANGER = { accessKeyId: 'ASIASTRANGER00000001', secretAccessKey: 'not-the-twins-secret-access-key-00000000', sessionToken: 'IQoJb3JpZ2luX2VjStranger' };

/** How a call ended: the service's error name, or 'answered'. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'answered';
  } catch (error) {
    return (error as Error).name;
  }
}

/** An unsigned JSON request, as a client without credentials would send it. */
async function unsigned(endpoint: string, target: string, body: unknown, protocol = '1.0'): Promise<{ status: number; type: string | null }> {
  const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': `application/x-amz-json-${protocol}`, 'x-amz-target': target }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return { status: response.status, type: response.headers.get('x-amzn-errortype') };
}

describe('the Step Functions API', () => {
  const endpoint = twin.env.AWS_ENDPOINT_URL_SFN!;
  const generationArn = twin.env[workflowEnvName('generation')]!;
  const executionArn = `${generationArn.replace(':stateMachine:', ':execution:')}:no-such-generation`;
  const describeAs = (credentials: typeof LOCAL_CREDENTIALS) =>
    outcome(() => new SFNClient({ endpoint, region, credentials, maxAttempts: 1 }).send(new DescribeExecutionCommand({ executionArn })));

  it('refuses an unsigned call and a call signed with credentials it does not know', async () => {
    expect(await unsigned(endpoint, 'AWSStepFunctions.DescribeExecution', { executionArn })).toEqual({ status: 403, type: 'MissingAuthenticationTokenException' });
    expect(await describeAs(STRANGER)).toBe('UnrecognizedClientException');
    // The twin's own credentials reach the API, which has no such execution.
    expect(await describeAs(LOCAL_CREDENTIALS)).toBe('ExecutionDoesNotExist');
  });

  it('lets a function do only what its grants allow: the reconciler looks executions up, and starts none', async () => {
    const reconciler = functionCredentials(RECONCILER_FUNCTION.handler);
    expect(await describeAs(reconciler)).toBe('ExecutionDoesNotExist');
    const start = new StartExecutionCommand({ stateMachineArn: generationArn, name: 'never', input: '{}' });
    expect(await outcome(() => new SFNClient({ endpoint, region, credentials: reconciler, maxAttempts: 1 }).send(start))).toBe('AccessDeniedException');
  });
});

describe('cognito-local', () => {
  const endpoint = twin.cognitoEndpoint;
  const listAs = (credentials: typeof LOCAL_CREDENTIALS) =>
    outcome(() => new CognitoIdentityProviderClient({ endpoint, region, credentials, maxAttempts: 1 }).send(new ListUsersCommand({ UserPoolId: twin.userPoolId, Limit: 1 })));

  it('refuses an unsigned or strangely signed IAM-authorized call, and still takes the calls a signed-out visitor makes', async () => {
    expect(await unsigned(endpoint, 'AWSCognitoIdentityProviderService.ListUsers', { UserPoolId: twin.userPoolId }, '1.1')).toEqual({
      status: 403,
      type: 'MissingAuthenticationTokenException',
    });
    expect(await unsigned(endpoint, 'AWSCognitoIdentityProviderService.AdminDeleteUser', { UserPoolId: twin.userPoolId, Username: 'anyone' }, '1.1')).toMatchObject({ status: 403 });
    expect(await listAs(STRANGER)).toBe('UnrecognizedClientException');
    expect(await listAs(LOCAL_CREDENTIALS)).toBe('answered');
    // Sign-up needs no credentials, in Cognito as here (the web app calls it unsigned).
    const signUp = new SignUpCommand({ ClientId: twin.userPoolClientId, Username: uniqueEmail('unsigned'), Password: 'Correct-horse-7' });
    expect(await outcome(() => new CognitoIdentityProviderClient({ endpoint, region, credentials: STRANGER, maxAttempts: 1 }).send(signUp))).toBe('answered');
  });

  it('lets a function call only the user-pool actions it declares', async () => {
    const profileMaker = functionCredentials('get-profile');
    expect(await listAs(profileMaker)).toBe('answered');
    const client = new CognitoIdentityProviderClient({ endpoint, region, credentials: profileMaker, maxAttempts: 1 });
    expect(await outcome(() => client.send(new AdminDeleteUserCommand({ UserPoolId: twin.userPoolId, Username: 'anyone' })))).toBe('AccessDeniedException');
    expect(await listAs(functionCredentials('list-clothing-items'))).toBe('AccessDeniedException');
  });
});

describe('S3 and DynamoDB, with a function’s credentials', () => {
  const s3As = (credentials: typeof LOCAL_CREDENTIALS) => new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region, credentials, forcePathStyle: true });

  it('checks a presigned URL against the grants of the function that signed it', async () => {
    const user = await createUser(twin);
    // The upload URL create-clothing-upload-url signs (put only) takes the file, as in the cloud.
    const key = await uploadFile(twin, user, '/clothing-items/upload-url', await productJpeg());
    const get = new GetObjectCommand({ Bucket: twin.env.BUCKET_CLOTHING_IMAGES!, Key: key });
    const read = async (credentials: typeof LOCAL_CREDENTIALS) => {
      const response = await fetch(await getSignedUrl(s3As(credentials), get, { expiresIn: 60 }));
      const text = await response.text();
      return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1] };
    };
    // A URL to read it, signed by a function that may only put there, is refused; by one that reads the bucket, served.
    expect(await read(functionCredentials('create-clothing-upload-url'))).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await read(functionCredentials('list-credit-transactions'))).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await read(functionCredentials('list-clothing-items'))).toEqual({ status: 200, code: undefined });
  });

  it('refuses a function a table it does not declare', async () => {
    const dynamo = (credentials: typeof LOCAL_CREDENTIALS) => new DynamoDBClient({ endpoint: twin.env.AWS_ENDPOINT_URL_DYNAMODB, region, credentials, maxAttempts: 1 });
    const get = new GetItemCommand({ TableName: twin.env[tableEnvName('ledger')]!, Key: { user_id: { S: 'u' }, id: { S: 'i' } } });
    expect(await outcome(() => dynamo(functionCredentials('list-clothing-items')).send(get))).toBe('AccessDeniedException');
    expect(await outcome(() => dynamo(functionCredentials('list-credit-transactions')).send(get))).toBe('answered');
  });
});
