import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** A workflow's state machine name: fixed per stack, so its executions' ARNs are known when functions are granted. */
export function workflowStateMachineName(scope: IConstruct, workflow: string): string {
  return `${Stack.of(scope).stackName}-${workflow}`;
}
