// The workflows as CDK deploys them: the ASL file's own text (the file the local twin runs), the task functions'
// ARNs substituted for its placeholders, invoke granted for each task, and start/describe/stop for the routes that
// declare the workflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { ENDED_STATUSES, WORKFLOWS, workflowEnvName, type WorkflowDefinition } from '../../lambdas/workflows.js';
import { readWorkflowText } from '../../lib/workflows/index.js';
import { synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

let synth: Synthesized;
beforeAll(() => {
  synth = synthModelLoop({ nag: false });
});
afterAll(() => synth?.dispose());

const workflows = Object.entries(WORKFLOWS) as [string, WorkflowDefinition][];
const resourcesOf = (type: string) => Object.entries(synth.json.Resources).filter(([, resource]) => resource.Type === type);

/** The logical id of the function a Fn::GetAtt [id, 'Arn'] points at. */
const getAttTarget = (value: unknown) => (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];

describe('workflows', () => {
  it('deploys the video and generation workflows', () => {
    expect(Object.keys(WORKFLOWS).sort()).toEqual(expect.arrayContaining(['generation', 'video']));
    expect(resourcesOf('AWS::StepFunctions::StateMachine')).toHaveLength(workflows.length);
  });

  it.each(workflows)('runs the %s ASL file itself as a Standard state machine with a function for every task', (name, workflow) => {
    const machines = resourcesOf('AWS::StepFunctions::StateMachine').map(([, resource]) => resource.Properties ?? {});
    const machine = machines.find((properties) => properties.DefinitionString === readWorkflowText(workflow));
    expect(machine, `no state machine carries the text of lib/workflows/${workflow.asl}`).toBeDefined();
    expect(machine!.StateMachineType).toBe('STANDARD');
    const substitutions = machine!.DefinitionSubstitutions as Record<string, unknown>;
    expect(Object.keys(substitutions).sort()).toEqual(Object.keys(workflow.tasks).sort());

    const roleId = getAttTarget(machine!.RoleArn)!;
    const invokeTargets = resourcesOf('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties?.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((statement) => [statement.Action].flat().includes('lambda:InvokeFunction'))
      .flatMap((statement) => [statement.Resource].flat().map(getAttTarget));
    for (const [placeholder, task] of Object.entries(workflow.tasks)) {
      const functionId = getAttTarget(substitutions[placeholder]);
      const fn = synth.json.Resources[functionId!] as CfnResource;
      expect(fn.Type, `${name}.${placeholder}`).toBe('AWS::Lambda::Function');
      expect(fn.Metadata?.['aws:cdk:path'] ?? '', `${name}.${placeholder} serves ${task.handler}`).toContain('Workflows');
      expect(invokeTargets, `the ${name} state machine may invoke its ${placeholder} task`).toContain(functionId);
    }
  });

  it('gives every route that declares a workflow its ARN and the right to start, describe and stop it', () => {
    const routes = (ROUTES as readonly RouteDefinition[]).filter((route) => route.workflows?.length);
    expect(routes.length).toBeGreaterThan(0);
    const functions = resourcesOf('AWS::Lambda::Function');
    for (const route of routes) {
      for (const workflow of route.workflows!) {
        const withEnv = functions.filter(([, fn]) => fn.Properties?.Environment?.Variables?.[workflowEnvName(workflow)]);
        expect(withEnv.length, `${route.method} ${route.path} knows the ${workflow} ARN`).toBeGreaterThan(0);
      }
    }
    const actions = resourcesOf('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) => [statement.Action].flat()),
    );
    expect(actions).toEqual(expect.arrayContaining(['states:StartExecution', 'states:DescribeExecution', 'states:StopExecution']));
  });

  it('settles every workflow\'s failed, timed-out and aborted executions through an EventBridge rule with a dead-letter queue', () => {
    const rules = resourcesOf('AWS::Events::Rule').map(([, rule]) => rule.Properties ?? {});
    const rule = rules.find((properties) => properties.EventPattern?.source?.[0] === 'aws.states');
    expect(rule, 'a rule on Step Functions status changes').toBeDefined();
    expect(rule!.EventPattern['detail-type']).toEqual(['Step Functions Execution Status Change']);
    expect(rule!.EventPattern.detail.status).toEqual([...ENDED_STATUSES]);
    const machineIds = resourcesOf('AWS::StepFunctions::StateMachine').map(([id]) => id);
    const watched = (rule!.EventPattern.detail.stateMachineArn as { Ref: string }[]).map((arn) => arn.Ref);
    expect(watched.sort()).toEqual(machineIds.sort());
    const [target] = rule!.Targets as { Arn: unknown; DeadLetterConfig?: { Arn: unknown } }[];
    const fn = synth.json.Resources[getAttTarget(target!.Arn)!]!;
    expect(fn.Type).toBe('AWS::Lambda::Function');
    expect(Object.keys(fn.Properties?.Environment?.Variables ?? {})).toEqual(expect.arrayContaining([workflowEnvName('video'), workflowEnvName('generation')]));
    expect(target!.DeadLetterConfig?.Arn).toBeDefined();
  });
});
