// The batch workflow's ASL file (lib/workflows/batch.asl.json) run by aws-local-stepfunctions, as the twin runs it,
// with stand-in tasks: the Map never runs more photos at once than the input's maxConcurrency, a transient failure is
// retried, any other failure of one photo goes to FailPhoto for that photo only and the others carry on, and
// Summarize runs once at the end. The real tasks run in test/integration/batch.test.ts.
import '../../lib/local/promise-with-resolvers.js';
import { createRequire } from 'node:module';
import { StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { GENERATION_ERROR, GenerationTaskError } from '../../lambdas/domain/generation/failure.js';
import { loadDefinition } from '../../lib/local/stepfunctions.js';

const aslValidator = createRequire(import.meta.url)('asl-validator') as (definition: unknown) => { isValid: boolean; errorsText: (separator?: string) => string };

const definition = loadDefinition('batch');
const photoIds = Array.from({ length: 9 }, (_, index) => `batch-1-p${String(index).padStart(3, '0')}`);

async function run(makePhoto: (input: { userId: string; generationId: string }, attempt: number) => Promise<unknown>, maxConcurrency = 3) {
  const attempts = new Map<string, number>();
  const failed: { photoId: string; error: { Error: string } }[] = [];
  const summaries: unknown[] = [];
  let running = 0;
  let peak = 0;
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true } });
  const execution = machine.run(
    { userId: 'user-1', batchId: 'batch-1', photoIds, maxConcurrency },
    {
      overrides: {
        taskResourceLocalHandlers: {
          MakePhoto: (async (input: { userId: string; generationId: string }) => {
            const attempt = (attempts.get(input.generationId) ?? 0) + 1;
            attempts.set(input.generationId, attempt);
            peak = Math.max(peak, ++running);
            try {
              await new Promise((resolve) => setTimeout(resolve, 5));
              return await makePhoto(input, attempt);
            } finally {
              running--;
            }
          }) as never,
          FailPhoto: (async (input: { photoId: string; error: { Error: string } }) => {
            failed.push(input);
            return { status: 'failed' };
          }) as never,
          Summarize: (async (input: unknown) => {
            summaries.push(input);
            return { successfulGenerations: photoIds.length - failed.length, failedGenerations: failed.length };
          }) as never,
        },
        retryIntervalOverrides: { MakePhoto: 0, FailPhoto: 0, Summarize: 0 },
      },
    },
  );
  const output = await execution.result;
  return { output, attempts, failed, summaries, peak };
}

describe('the batch workflow', () => {
  it('is valid ASL: an inline Map with MaxConcurrencyPath, the Catch inside the iteration, a timeout', () => {
    const result = aslValidator(definition);
    expect(result.errorsText('\n')).toBe('');
    const states = (definition as unknown as { States: Record<string, any> }).States;
    expect(states.Photos.Type).toBe('Map');
    expect(states.Photos.MaxConcurrencyPath).toBe('$.maxConcurrency');
    expect(states.Photos.ItemProcessor.ProcessorConfig.Mode).toBe('INLINE');
    expect(states.Photos.Catch).toBeUndefined();
    expect(states.Photos.ItemProcessor.States.MakePhoto.Catch[0]).toMatchObject({ ErrorEquals: ['States.ALL'], Next: 'FailPhoto' });
    expect(states.Photos.ItemProcessor.States.MakePhoto.Retry[0].ErrorEquals).toContain(GENERATION_ERROR.transient);
    // Ids only: the Map's results are dropped, so the state never grows with the batch.
    expect(states.Photos.ResultPath).toBeNull();
  });

  it('makes every photo, never more at once than maxConcurrency, then summarizes once', async () => {
    const { output, attempts, failed, summaries, peak } = await run(async () => ({ status: 'complete' }), 3);
    expect([...attempts.keys()].sort()).toEqual(photoIds);
    expect(failed).toEqual([]);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
    expect(summaries).toEqual([{ userId: 'user-1', batchId: 'batch-1' }]);
    expect(output).toEqual({ successfulGenerations: 9, failedGenerations: 0 });
  });

  it('retries a transient failure; one photo failing for good goes to FailPhoto alone and the others carry on', async () => {
    const { output, attempts, failed } = await run(async ({ generationId }, attempt) => {
      if (generationId.endsWith('p002') && attempt < 3) throw new GenerationTaskError(GENERATION_ERROR.transient, 'throttled');
      if (generationId.endsWith('p005')) throw new GenerationTaskError(GENERATION_ERROR.failed, 'no');
      return { status: 'complete' };
    });
    expect(attempts.get('batch-1-p002')).toBe(3);
    expect(attempts.get('batch-1-p005')).toBe(1);
    expect(failed).toEqual([{ userId: 'user-1', batchId: 'batch-1', photoId: 'batch-1-p005', error: expect.objectContaining({ Error: GENERATION_ERROR.failed }) }]);
    expect(output).toEqual({ successfulGenerations: 8, failedGenerations: 1 });
  });
});
