// The video workflow's ASL file: valid ASL (asl-validator), the one file both hosts run (CDK's synthesized state
// machine and the twin's aws-local-stepfunctions definition are that file's text with only the task ARNs
// substituted), and the error names and limits it relies on agree with the task code.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_RETRIED_ERRORS, VIDEO_ERROR, RETRIED_ERRORS } from '../../lambdas/domain/video/workflow-errors.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { loadDefinition, localFunctionArn } from '../../lib/local/stepfunctions.js';
import { taskFunctionName } from '../../lib/local/deployed-functions.js';
import { readWorkflowText, substituteTasks, WORKFLOWS_DIR } from '../../lib/workflows/index.js';
import { synthModelLoop, type Synthesized } from './synth.js';

const aslValidator = createRequire(import.meta.url)('asl-validator') as (
  definition: unknown,
  options?: Record<string, unknown>,
) => { isValid: boolean; errorsText: (separator?: string) => string };

const video = WORKFLOWS.video;
const text = readWorkflowText(video);
/** The definition with a recognisable stand-in for each task's ARN. */
const withArns = (arn: (placeholder: string) => string) => JSON.parse(substituteTasks(text, video, arn));

type State = Record<string, any>;
function allStates(definition: { States: Record<string, State> }): [string, State][] {
  return Object.entries(definition.States).flatMap(([name, state]) => [
    [name, state] as [string, State],
    ...(state.ItemProcessor ? allStates(state.ItemProcessor) : []),
  ]);
}

let synth: Synthesized;
beforeAll(() => {
  synth = synthModelLoop({ nag: false });
});
afterAll(() => synth?.dispose());

describe('the video workflow file', () => {
  it('is valid ASL with every task placeholder replaced by a function ARN', () => {
    const definition = withArns((placeholder) => `arn:aws:lambda:us-east-1:123456789012:function:${placeholder}`);
    const result = aslValidator(definition);
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
    // The validator does catch a broken machine: a Choice that leads nowhere.
    definition.States.RenderOutputs.ItemProcessor.States.ClipReady.Default = 'NoSuchState';
    expect(aslValidator(definition).isValid).toBe(false);
  });

  it('is the one file under lib/workflows that the twin runs and CDK deploys', () => {
    expect(video.asl).toBe('video.asl.json');
    expect(join(WORKFLOWS_DIR, video.asl)).toMatch(/lib\/workflows\/video\.asl\.json$/);
    // The twin: the file's text with the local handler's ARN for each placeholder.
    expect(loadDefinition('video')).toEqual(withArns((placeholder) => localFunctionArn(taskFunctionName('video', placeholder))));

    // CDK: the synthesized state machine carries the same text, and its substitutions are exactly the tasks' functions.
    const machines = Object.values(synth.json.Resources).filter((resource) => resource.Type === 'AWS::StepFunctions::StateMachine');
    const deployed = machines.find((machine) => machine.Properties?.DefinitionString === text);
    expect(deployed).toBeDefined();
    const substitutions = deployed!.Properties!.DefinitionSubstitutions as Record<string, { 'Fn::GetAtt': [string, string] }>;
    expect(Object.keys(substitutions).sort()).toEqual(Object.keys(video.tasks).sort());
    // Substituting the deployed functions' logical ids gives the twin's definition with other ARNs: the same machine.
    const deployedDefinition = withArns((placeholder) => `cdk:${substitutions[placeholder]!['Fn::GetAtt'][0]}`);
    const twinDefinition = loadDefinition('video') as unknown as { States: Record<string, State> };
    const shape = (definition: { States: Record<string, State> }) =>
      JSON.stringify(definition, (key, value) => (key === 'Resource' ? 'function' : value));
    expect(shape(deployedDefinition)).toBe(shape(twinDefinition));
  });

  /**
   * What each task retries: the provider steps, exactly the transient errors the task code throws and Lambda's own;
   * finalizing, Lambda's own; the steps that end the job and settle its credits, anything (the money must settle).
   */
  const RETRIED_BY_TASK: Record<string, readonly string[]> = {
    StartClip: RETRIED_ERRORS,
    // A check only reads: its own timeout is retried too, so a clip Google billed is never refunded for a slow check.
    CheckClip: CHECK_RETRIED_ERRORS,
    FinalizeOutput: RETRIED_ERRORS.filter((error) => error !== VIDEO_ERROR.providerBusy),
    CompleteJob: ['States.ALL'],
    MarkFailed: ['States.ALL'],
  };

  it('has an overall timeout, retries only transient errors (settling, any), and catches every task into a refunding end', () => {
    const definition = JSON.parse(text) as { TimeoutSeconds: number; QueryLanguage?: string; States: Record<string, State> };
    expect(definition.TimeoutSeconds).toBeGreaterThan(0);
    expect(definition.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
    const states = allStates(definition);
    const tasks = states.filter(([, state]) => state.Type === 'Task');
    expect(tasks.map(([name]) => name).sort()).toEqual(Object.keys(video.tasks).sort());
    for (const [name, state] of tasks) {
      expect(state.TimeoutSeconds, `${name} has a timeout`).toBeGreaterThan(0);
      expect(state.Resource).toBe(`\${${name}}`);
      // Every task is caught into MarkFailed (or, inside the Map, the output's failure), except MarkFailed itself.
      expect(state.Catch?.[0]?.ErrorEquals, `${name} is caught`).toEqual(name === 'MarkFailed' ? undefined : ['States.ALL']);
      expect(state.Retry.map((retry: { ErrorEquals: string[] }) => retry.ErrorEquals), `${name} retries`).toEqual([RETRIED_BY_TASK[name]]);
    }
    const [, tooLong] = states.find(([name]) => name === 'ClipTookTooLong')!;
    expect(tooLong.Result.Error).toBe(VIDEO_ERROR.timedOut);
    const [, map] = states.find(([, state]) => state.Type === 'Map')!;
    expect(map.Catch[0]).toMatchObject({ ErrorEquals: ['States.ALL'], Next: 'MarkFailed' });
  });
});
