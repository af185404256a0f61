// The twin's Step Functions holds every execution to the 256 KiB payload quota as the cloud does: StartExecution with a
// larger input is refused (InvalidExecutionInput), and a state whose result is larger fails the execution with
// States.DataLimitExceeded, which the workflow's States.ALL Catch does not handle (its Fail task never runs).
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_FUNCTIONS_PAYLOAD_BYTES } from '../../lambdas/contracts/aws-limits.js';
import { workflowEnvName } from '../../lambdas/workflows.js';
import { freePort } from '../../lib/local/processes.js';
import { TwinAccess } from '../../lib/local/grants.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { startStepFunctionsLocal, type StepFunctionsLocal } from '../../lib/local/stepfunctions.js';

const calls: string[] = [];
let processResult: unknown = {};
let local: StepFunctionsLocal;
let sfn: SFNClient;

beforeAll(async () => {
  local = await startStepFunctionsLocal({
    port: await freePort(),
    log: () => undefined,
    access: new TwinAccess(LOCAL_CREDENTIALS, []),
    invoke: async (name) => {
      calls.push(name);
      return name === 'generation-Process' ? processResult : { status: 'failed' };
    },
  });
  sfn = new SFNClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
}, 120_000);
afterAll(async () => {
  sfn?.destroy();
  await local?.stop();
});

const generationArn = () => local.env[workflowEnvName('generation')]!;

async function finished(executionArn: string) {
  for (;;) {
    const execution = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (execution.status !== 'RUNNING') return execution;
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
}

describe('the 256 KiB Step Functions payload quota on the twin', () => {
  it('refuses a StartExecution input over it with InvalidExecutionInput', async () => {
    const input = JSON.stringify({ userId: 'u', generationId: 'g', padding: 'x'.repeat(STEP_FUNCTIONS_PAYLOAD_BYTES) });
    await expect(sfn.send(new StartExecutionCommand({ stateMachineArn: generationArn(), name: 'too-big-input', input }))).rejects.toMatchObject({
      name: 'InvalidExecutionInput',
    });
  });

  it('fails the execution with States.DataLimitExceeded when a task returns more, and no Catch handles it', async () => {
    calls.length = 0;
    processResult = { images: 'x'.repeat(STEP_FUNCTIONS_PAYLOAD_BYTES) };
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: generationArn(), name: 'too-big-result', input: JSON.stringify({ userId: 'u', generationId: 'g' }) }),
    );
    const execution = await finished(executionArn!);
    expect(execution).toMatchObject({ status: 'FAILED', error: 'States.DataLimitExceeded' });
    expect(calls).toEqual(['generation-Process']);
  }, 60_000);

  it('runs an execution whose states stay under it', async () => {
    calls.length = 0;
    processResult = { images: 'x'.repeat(1000) };
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: generationArn(), name: 'small', input: JSON.stringify({ userId: 'u', generationId: 'g' }) }),
    );
    expect((await finished(executionArn!)).status).toBe('SUCCEEDED');
  }, 60_000);
});
