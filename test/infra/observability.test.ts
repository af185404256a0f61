// What an operator gets from every deployed function and workflow: X-Ray traces (Lambda's active tracing on each
// function, tracing on each state machine) and Powertools configured alike, so every log line and metric names the
// same service and namespace.
import type { CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { synthModelLoop, type Synthesized } from './synth.js';

let synthesized: Synthesized;
beforeAll(() => {
  synthesized = synthModelLoop({ nag: false });
});
afterAll(() => synthesized?.dispose());

const resourcesOf = (type: string) => Object.entries(synthesized.json.Resources).filter(([, resource]) => resource.Type === type);

describe('observability, as synthesized', () => {
  it('turns active X-Ray tracing on for every function the stack builds from lambdas/handlers', () => {
    const functions = resourcesOf('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThanOrEqual(synthesized.stack.functions.created.length);
    const untraced = synthesized.stack.functions.created
      .map(({ handler, fn }) => ({ handler, resource: synthesized.json.Resources[synthesized.stack.getLogicalId(fn.node.defaultChild as CfnElement)]! }))
      .filter(({ resource }) => resource.Properties?.TracingConfig?.Mode !== 'Active')
      .map(({ handler }) => handler);
    expect(untraced).toEqual([]);
  });

  it('gives every function the same Powertools service and metrics namespace, and debug sampling to the provider tasks', () => {
    const providerTasks = new Set(Object.values(WORKFLOWS).flatMap((workflow) => Object.values(workflow.tasks).filter((task) => 'providers' in task).map((task) => task.handler)));
    for (const { handler, fn } of synthesized.stack.functions.created) {
      const variables = synthesized.json.Resources[synthesized.stack.getLogicalId(fn.node.defaultChild as CfnElement)]!.Properties!.Environment.Variables;
      expect(variables, handler).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'modelloop', POWERTOOLS_METRICS_NAMESPACE: 'ModelLoop' });
      expect(variables.POWERTOOLS_LOGGER_SAMPLE_RATE, handler).toBe(providerTasks.has(handler) ? '0.1' : undefined);
    }
    expect(providerTasks.size).toBeGreaterThan(0);
  });

  it('enables tracing on every state machine', () => {
    const stateMachines = resourcesOf('AWS::StepFunctions::StateMachine');
    expect(stateMachines.length).toBe(Object.keys(WORKFLOWS).length);
    for (const [id, stateMachine] of stateMachines) expect(stateMachine.Properties?.TracingConfiguration, id).toEqual({ Enabled: true });
  });
});
