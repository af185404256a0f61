// The generation workflow's ASL file (lib/workflows/generation.asl.json) run by aws-local-stepfunctions, as the twin
// runs it, with stand-in tasks: what is retried and how often, what ends in Fail and with which error. The real
// tasks run in test/integration/generation.test.ts.
import '../../lib/local/promise-with-resolvers.js';
import { createRequire } from 'node:module';
import { ExecutionError, StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { GENERATION_ERROR, GenerationTaskError } from '../../lambdas/domain/generation/failure.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { loadDefinition } from '../../lib/local/stepfunctions.js';

const aslValidator = createRequire(import.meta.url)('asl-validator') as (definition: unknown) => { isValid: boolean; errorsText: (separator?: string) => string };

const definition = loadDefinition('generation');
const input = { userId: 'user-1', generationId: 'gen-1' };

interface Run {
  processCalls: number;
  failInputs: unknown[];
  outcome: 'succeeded' | 'failed';
}

/** Runs the workflow with `process` as the Process task and a recording Fail task; retries wait 0 ms. */
async function run(process: (attempt: number) => unknown): Promise<Run> {
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true } });
  const record: Run = { processCalls: 0, failInputs: [], outcome: 'succeeded' };
  const execution = machine.run(input, {
    overrides: {
      taskResourceLocalHandlers: {
        Process: async () => process(++record.processCalls) as never,
        Fail: async (failInput) => {
          record.failInputs.push(failInput);
          return { status: 'failed' };
        },
      },
      retryIntervalOverrides: { Process: 0, Fail: 0 },
    },
  });
  try {
    await execution.result;
  } catch (error) {
    if (!(error instanceof ExecutionError)) throw error;
    record.outcome = 'failed';
  }
  return record;
}

const throwing = (name: string, message = 'provider said no') => () => {
  throw new GenerationTaskError(name, message);
};

describe('the generation workflow', () => {
  it('is valid ASL with a timeout, and every task placeholder names a task function', () => {
    const result = aslValidator(definition);
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
    const states = (definition as unknown as { States: Record<string, any>; TimeoutSeconds: number }).States;
    expect((definition as unknown as { TimeoutSeconds: number }).TimeoutSeconds).toBeGreaterThan(3 * states.Process.TimeoutSeconds);
    expect(states.Process.Retry[0].ErrorEquals).toContain(GENERATION_ERROR.transient);
    for (const refused of [GENERATION_ERROR.contentPolicy, GENERATION_ERROR.unsupported, GENERATION_ERROR.failed, GENERATION_ERROR.badSource]) {
      expect(JSON.stringify(states.Process.Retry)).not.toContain(refused);
    }
  });

  it('runs an upscale in Upscale (the function with the ESRGAN weights) and everything else, or an input without its operation, in Process', async () => {
    const tasks = async (operation?: string) => {
      const called: string[] = [];
      const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true } });
      const execution = machine.run(operation ? { ...input, operation } : input, {
        overrides: {
          taskResourceLocalHandlers: {
            Process: async () => (called.push('Process'), { status: 'complete' }) as never,
            Upscale: async () => (called.push('Upscale'), { status: 'complete' }) as never,
          },
        },
      });
      await execution.result;
      return called;
    };
    expect(await tasks('upscale')).toEqual(['Upscale']);
    expect(await tasks('on-model')).toEqual(['Process']);
    expect(await tasks('edit')).toEqual(['Process']);
    expect(await tasks()).toEqual(['Process']);
    const states = (definition as unknown as { States: Record<string, any> }).States;
    expect(states.Upscale.Retry).toEqual(states.Process.Retry);
    expect(states.Upscale.Catch).toEqual(states.Process.Catch);
    expect(states.Upscale.TimeoutSeconds).toBe(WORKFLOWS.generation.tasks.Upscale.timeoutSeconds);
  });

  it('succeeds without Fail when Process succeeds', async () => {
    const result = await run(() => ({ status: 'complete' }));
    expect(result).toEqual({ processCalls: 1, failInputs: [], outcome: 'succeeded' });
  });

  it('retries a transient provider failure and succeeds when the provider recovers', async () => {
    const result = await run((attempt) => (attempt < 3 ? throwing(GENERATION_ERROR.transient)() : { status: 'complete' }));
    expect(result).toEqual({ processCalls: 3, failInputs: [], outcome: 'succeeded' });
  });

  it('gives up after 3 retries of a transient failure and hands the error to Fail', async () => {
    const result = await run(throwing(GENERATION_ERROR.transient, 'throttled'));
    expect(result.processCalls).toBe(4);
    expect(result.failInputs).toEqual([{ ...input, error: { Error: GENERATION_ERROR.transient, Cause: 'throttled' } }]);
    expect(result.outcome).toBe('failed');
  });

  it.each([GENERATION_ERROR.contentPolicy, GENERATION_ERROR.unsupported, GENERATION_ERROR.failed, 'TypeError'])(
    'sends %s straight to Fail, without a retry',
    async (name) => {
      const result = await run(throwing(name, 'why'));
      expect(result.processCalls).toBe(1);
      expect(result.failInputs).toEqual([{ ...input, error: { Error: name, Cause: 'why' } }]);
    },
  );
});
