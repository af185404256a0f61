// The video workflow (lib/workflows/video.asl.json) run by aws-local-stepfunctions, as the twin runs it, against a
// provider that never finishes a clip and a clock that the tasks move on: a 16 s video is two chained clips, and
// waiting for them (checks 10 s apart, each taking its own time at a slow provider) can outlast the execution's
// TimeoutSeconds, which would end it TIMED_OUT with nothing refunded by the workflow itself. Every output stops
// waiting at the clips' deadline instead: the late output fails with VideoTimedOut, the others are delivered, and
// CompleteJob (which refunds exactly the failed outputs) runs with time left before the execution's timeout.
import '../../lib/local/promise-with-resolvers.js';
import { StateMachine } from 'aws-local-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VideoOutputState } from '../../lambdas/contracts/workflows.js';
import { clipStartedState, checkClip } from '../../lambdas/domain/video/clips.js';
import { assertBeforeDeadline, VIDEO_CLIPS_DEADLINE_SECONDS, VIDEO_FINISH_RESERVE_SECONDS } from '../../lambdas/domain/video/deadline.js';
import { VIDEO_ERROR } from '../../lambdas/domain/video/workflow-errors.js';
import type { VideoStatusPort } from '../../lambdas/providers/video-status.js';
import { WORKFLOW_TIMEOUT_SECONDS } from '../../lambdas/workflows.js';
import { loadDefinition } from '../../lib/local/stepfunctions.js';

const BUCKET = 'results-test';
beforeAll(() => {
  process.env.BUCKET_RESULTS = BUCKET;
});

const definition = loadDefinition('video') as unknown as { TimeoutSeconds: number; States: Record<string, any> };
/** What each step takes on the fake clock: a check is the 10 s wait plus a provider answering in 20 s. */
const CHECK_SECONDS = 30;
const START_SECONDS = 60;
const FINALIZE_SECONDS = 120;
const NEVER = Number.POSITIVE_INFINITY;

interface Run {
  completed: { results: { failed?: boolean; output: number; error?: { Error?: string } }[]; at: number }[];
  markedFailed: unknown[];
  /** Seconds on the fake clock when the last task ran. */
  lastTaskAt: number;
  status: string;
}

/** Runs a job of `outputs` 16 s outputs; clip c of output o is ready after readyAfter[o][c] checks. */
async function run(readyAfter: number[][]): Promise<Run> {
  // The fake clock runs from the execution's StartTime, which the Map hands every output as startedAt.
  let start: number | undefined;
  let elapsed = 0;
  const now = () => start! + elapsed * 1000;
  const checks = new Map<string, number>();
  const video: VideoStatusPort = {
    check: async (operationName) => {
      const count = (checks.get(operationName) ?? 0) + 1;
      checks.set(operationName, count);
      const [, output, clip] = operationName.split('-').map(Number);
      return count >= readyAfter[output!]![clip!]! ? { state: 'completed', output: { bucket: BUCKET, key: `${operationName}.mp4` } } : { state: 'running' };
    },
  };
  const result: Run = { completed: [], markedFailed: [], lastTaskAt: 0, status: '' };
  const ran = <T>(value: T) => {
    result.lastTaskAt = elapsed;
    return value;
  };
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: true } });
  const execution = machine.run(
    { userId: 'user-1', jobId: 'job-1', outputs: readyAfter.map((_, index) => index), maxConcurrency: readyAfter.length },
    {
      overrides: {
        taskResourceLocalHandlers: {
          // StartClip's own steps around the provider call (lambdas/domain/video/clip-start.ts): the deadline, then the state.
          StartClip: (async (state: VideoOutputState) => {
            start ??= Date.parse(state.startedAt!);
            assertBeforeDeadline(state, now());
            elapsed += START_SECONDS;
            const clipIndex = state.nextClip ?? 0;
            return ran(clipStartedState(state, { clipIndex, clipCount: 2, operationName: `op-${state.output}-${clipIndex}`, model: 'fake-veo', clips: state.clips ?? [] }));
          }) as never,
          CheckClip: (async (state: VideoOutputState) => {
            elapsed += CHECK_SECONDS;
            return ran(await checkClip(state, { video, now }));
          }) as never,
          FinalizeOutput: (async (state: VideoOutputState) => {
            elapsed += FINALIZE_SECONDS;
            return ran({ output: state.output, clips: state.clips, model: 'fake-veo' });
          }) as never,
          CompleteJob: (async (input: Run['completed'][number]) => {
            result.completed.push({ results: input.results, at: elapsed });
            return ran({ status: input.results.every((output) => output.failed) ? 'failed' : 'complete' });
          }) as never,
          MarkFailed: (async (input: unknown) => {
            result.markedFailed.push(input);
            return ran({});
          }) as never,
        },
        waitTimeOverrides: { WaitForClip: 0 },
        retryIntervalOverrides: { StartClip: 0, CheckClip: 0, FinalizeOutput: 0, CompleteJob: 0, MarkFailed: 0 },
      },
    },
  );
  try {
    await execution.result;
    result.status = 'SUCCEEDED';
  } catch (error) {
    result.status = (error as Error).name;
  }
  return result;
}

// A hundred-odd interpreted steps per run: slow on a busy machine, never a timing assert.
describe('the video workflow against a provider that never finishes', { timeout: 60_000 }, () => {
  it('keeps the deadline and its reserve within the execution timeout that the ASL file declares', () => {
    expect(definition.TimeoutSeconds).toBe(WORKFLOW_TIMEOUT_SECONDS.video);
    expect(VIDEO_CLIPS_DEADLINE_SECONDS + VIDEO_FINISH_RESERVE_SECONDS).toBe(definition.TimeoutSeconds);
    // One finalize, then the job's completion or failure, each within its own state timeout.
    const iteration = definition.States.RenderOutputs.ItemProcessor.States;
    expect(VIDEO_FINISH_RESERVE_SECONDS).toBeGreaterThanOrEqual(iteration.FinalizeOutput.TimeoutSeconds + definition.States.CompleteJob.TimeoutSeconds + definition.States.MarkFailed.TimeoutSeconds);
    // The per-clip check limit alone would not: two clips of 120 checks 10 s apart are already 2400 s of waiting.
    expect(definition.States.RenderOutputs.ItemSelector['startedAt.$']).toBe('$$.Execution.StartTime');
  });

  it('a 16 s video: the output whose second clip never comes fails at the deadline, the other is delivered, and the job completes with time to refund', async () => {
    const { completed, markedFailed, lastTaskAt, status } = await run([
      [5, 5],
      [60, NEVER],
    ]);
    expect(status).toBe('SUCCEEDED');
    expect(markedFailed).toEqual([]);
    expect(completed).toHaveLength(1);
    const [{ results, at }] = completed as [Run['completed'][number]];
    expect(results[0]).toMatchObject({ output: 0, clips: ['op-0-0.mp4', 'op-0-1.mp4'] });
    expect(results[0]!.failed).toBeUndefined();
    expect(results[1]).toMatchObject({ failed: true, output: 1, error: { Error: VIDEO_ERROR.timedOut } });
    // Within one check of the deadline, and early enough that CompleteJob ends before the execution's timeout.
    expect(at).toBeGreaterThanOrEqual(VIDEO_CLIPS_DEADLINE_SECONDS);
    expect(at).toBeLessThanOrEqual(VIDEO_CLIPS_DEADLINE_SECONDS + CHECK_SECONDS);
    expect(lastTaskAt + definition.States.CompleteJob.TimeoutSeconds).toBeLessThanOrEqual(definition.TimeoutSeconds);
  });

  it('a first clip ready only after the deadline starts no second clip: that output fails, and a job of nothing delivered ends failed in time', async () => {
    const firstCheckPastDeadline = Math.ceil((VIDEO_CLIPS_DEADLINE_SECONDS - START_SECONDS) / CHECK_SECONDS);
    const { completed, lastTaskAt, status } = await run([[firstCheckPastDeadline, 1]]);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.results).toEqual([expect.objectContaining({ failed: true, output: 0, error: expect.objectContaining({ Error: VIDEO_ERROR.timedOut }) })]);
    expect(status).not.toBe('SUCCEEDED');
    expect(lastTaskAt + definition.States.CompleteJob.TimeoutSeconds).toBeLessThanOrEqual(definition.TimeoutSeconds);
  });
});
