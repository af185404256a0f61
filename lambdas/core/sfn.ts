// The Step Functions client, created once per container. Locally the twin sets AWS_ENDPOINT_URL_SFN.
import {
  DescribeExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  type ExecutionStatus,
} from '@aws-sdk/client-sfn';
import { requireEnv, workflowEnvName } from './config.js';

/** A workflow's name in lambdas/workflows.ts; this layer only needs it to find the ARN in the environment. */
type WorkflowName = string;

// Pure for the bundler: a function that only derives execution ARNs from here does not carry the client.
export const sfn = /* @__PURE__ */ new SFNClient({});

/** The ARN of a workflow's state machine, from the environment its functions are given. */
export const stateMachineArn = (workflow: WorkflowName): string => requireEnv(workflowEnvName(workflow));

/** A Standard execution's ARN follows from its state machine and its name, so it is known before it starts. */
export function executionArn(workflow: WorkflowName, name: string): string {
  return `${stateMachineArn(workflow).replace(':stateMachine:', ':execution:')}:${name}`;
}

/**
 * Starts the named execution. Step Functions treats the same name with the same input as the same request while it
 * runs; a name already used by a closed execution answers ExecutionAlreadyExists, which here means "already done".
 */
export async function startExecution(workflow: WorkflowName, name: string, input: unknown): Promise<string> {
  try {
    const started = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: stateMachineArn(workflow), name, input: JSON.stringify(input) }),
    );
    return started.executionArn ?? executionArn(workflow, name);
  } catch (error) {
    if ((error as Error).name === 'ExecutionAlreadyExists') return executionArn(workflow, name);
    throw error;
  }
}

/** The execution's status, or undefined when Step Functions doesn't know it. */
export async function executionStatus(arn: string): Promise<ExecutionStatus | undefined> {
  try {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
    return described.status;
  } catch (error) {
    if ((error as Error).name === 'ExecutionDoesNotExist') return undefined;
    throw error;
  }
}

/** Stops a running execution; one that already ended or doesn't exist is left as it is. */
export async function stopExecution(arn: string, reason: { error: string; cause: string }): Promise<void> {
  try {
    await sfn.send(new StopExecutionCommand({ executionArn: arn, error: reason.error, cause: reason.cause }));
  } catch (error) {
    if ((error as Error).name !== 'ExecutionDoesNotExist') throw error;
  }
}
