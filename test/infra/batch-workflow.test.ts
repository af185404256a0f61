// The batch workflow as CDK deploys it: the one ASL file the twin runs (only the task ARNs substituted), an inline Map
// whose MaxConcurrency comes from the generate-batch function's setting (5 in the cloud, within a new account's 10 concurrent Lambda executions and the inline Map's
// 40), and the workflow-ended rule settling its executions that end unsettled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_CONCURRENCY_ENV, WORKFLOWS, workflowEnvName } from '../../lambdas/workflows.js';
import { NEW_ACCOUNT_BUDGET } from '../../lib/concurrency.js';
import { loadDefinition, localFunctionArn } from '../../lib/local/stepfunctions.js';
import { readWorkflowText, substituteTasks } from '../../lib/workflows/index.js';
import { synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

const batch = WORKFLOWS.batch;
const text = readWorkflowText(batch);

let synth: Synthesized;
beforeAll(() => {
  synth = synthModelLoop({ nag: false });
});
afterAll(() => synth?.dispose());

const resourcesOf = (type: string) => Object.entries(synth.json.Resources).filter(([, resource]) => resource.Type === type);
const handlerOf = (fn: CfnResource) => String(fn.Metadata?.['aws:cdk:path'] ?? '');

describe('the batch workflow', () => {
  it('deploys the file the twin runs: a Map over photo ids with MaxConcurrencyPath and the Catch inside the iteration', () => {
    const machine = resourcesOf('AWS::StepFunctions::StateMachine').find(([, resource]) => resource.Properties?.DefinitionString === text);
    expect(machine, 'a state machine carries the text of lib/workflows/batch.asl.json').toBeDefined();
    const substitutions = machine![1].Properties!.DefinitionSubstitutions as Record<string, { 'Fn::GetAtt': [string, string] }>;
    expect(Object.keys(substitutions).sort()).toEqual(['FailPhoto', 'MakePhoto', 'Summarize']);

    const deployed = JSON.parse(substituteTasks(text, batch, (placeholder) => `cdk:${substitutions[placeholder]!['Fn::GetAtt'][0]}`));
    const twin = loadDefinition('batch') as unknown;
    const shape = (definition: unknown) => JSON.stringify(definition, (key, value) => (key === 'Resource' ? 'function' : value));
    expect(shape(deployed)).toBe(shape(twin));
    expect(JSON.stringify(twin)).toContain(localFunctionArn('batch-FailPhoto'));

    const map = deployed.States.Photos;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.photoIds', MaxConcurrencyPath: '$.maxConcurrency', ResultPath: null });
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: 'INLINE' });
    expect(map.ItemProcessor.States.MakePhoto.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'FailPhoto' }]);
    expect(deployed.TimeoutSeconds).toBeGreaterThan(0);
  });

  it('gives POST /generate-batch the Map concurrency of the stage’s budget (a new account’s: 2) and the right to start the batch workflow', () => {
    const functions = resourcesOf('AWS::Lambda::Function').filter(([, fn]) => fn.Properties?.Environment?.Variables?.[MAP_CONCURRENCY_ENV.batch]);
    expect(functions).toHaveLength(1);
    const variables = functions[0]![1].Properties!.Environment.Variables as Record<string, unknown>;
    expect(variables[MAP_CONCURRENCY_ENV.batch]).toBe(String(NEW_ACCOUNT_BUDGET.batchPhotos));
    expect(variables[workflowEnvName('batch')]).toBeDefined();
    expect(handlerOf(functions[0]![1])).toMatch(/GenerateBatch/i);
  });

  it('settles batch executions that end unsettled through the workflow-ended rule', () => {
    const rule = resourcesOf('AWS::Events::Rule').map(([, resource]) => resource.Properties ?? {}).find((properties) => properties.EventPattern?.source?.[0] === 'aws.states');
    const machineId = resourcesOf('AWS::StepFunctions::StateMachine').find(([, resource]) => resource.Properties?.DefinitionString === text)![0];
    expect((rule!.EventPattern.detail.stateMachineArn as { Ref: string }[]).map((arn) => arn.Ref)).toContain(machineId);
    const target = (rule!.Targets as { Arn: { 'Fn::GetAtt': [string, string] } }[])[0]!;
    const fn = synth.json.Resources[target.Arn['Fn::GetAtt'][0]]!;
    expect(fn.Properties?.Environment?.Variables?.[workflowEnvName('batch')]).toBeDefined();
  });
});
