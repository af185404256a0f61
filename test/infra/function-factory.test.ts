// The function factory grants a function the workflows it declares whichever is created first, the function or the
// workflow's state machine; a workflow that never arrives fails the synth with the function's name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DefinitionBody, Pass, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { afterAll, describe, expect, it } from 'vitest';
import { workflowEnvName } from '../../lambdas/workflows.js';
import { FunctionFactory } from '../../lib/constructs/function-factory.js';
import { workflowStateMachineName } from '../../lib/constructs/workflow-names.js';

const outdirs: string[] = [];
afterAll(() => outdirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function stackWithFactory() {
  const outdir = mkdtempSync(join(tmpdir(), 'modelloop-factory-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Factory');
  const functions = new FunctionFactory({ tables: {} as never, buckets: {} as never });
  const stateMachine = () =>
    new StateMachine(stack, 'VideoStateMachine', {
      stateMachineName: workflowStateMachineName(stack, 'video'),
      definitionBody: DefinitionBody.fromChainable(new Pass(stack, 'Done')),
    });
  return { app, stack, functions, stateMachine };
}

describe('function factory', { timeout: 120_000 }, () => {
  it('grants a workflow to a function created before its state machine', () => {
    const { stack, functions, stateMachine } = stackWithFactory();
    functions.create(stack, 'EarlyFunction', { handler: 'workflow-ended', workflows: ['video'] });
    functions.useStateMachines({ video: stateMachine() });
    const template = Template.fromStack(stack);
    const [early] = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(Object.keys(early?.Properties.Environment.Variables ?? {})).toContain(workflowEnvName('video'));
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('states:StartExecution');
    expect(policies).toContain('states:StopExecution');
  });

  it('fails the synth, naming the function, when a declared workflow is never deployed', () => {
    const { app, stack, functions } = stackWithFactory();
    functions.create(stack, 'OrphanFunction', { handler: 'workflow-ended', workflows: ['video'] });
    expect(() => app.synth()).toThrow(/Factory\/OrphanFunction uses workflow 'video', which is not deployed/);
  });
});
