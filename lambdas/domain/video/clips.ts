// The video workflow's provider steps, one Map iteration per output: start clip i of the output (clip 0 from the
// product image, a later clip from the last frame of the one before, as the provider's plan says: clip-start.ts),
// then check it until it is ready (here), or until the clips' deadline (deadline.ts). Each step takes the iteration's state and returns the next one; the ASL's
// Choice reads `status`. Checking loads no image code (providers/video-status.ts), so CheckClip carries no sharp.
import { bucketName } from '../../data/tables.js';
import type { VideoOutputState } from '../../contracts/workflows.js';
import type { S3Location } from '../../providers/ports.js';
import { getVideoStatus, type VideoStatusPort } from '../../providers/video-status.js';
import { assertBeforeDeadline } from './deadline.js';
import { asWorkflowError, providerCall } from './workflow-errors.js';

/** One output's state in the workflow (its schema: contracts/workflows.ts). */
export type OutputState = VideoOutputState;

/** A provider's output location as a key of the results bucket; a clip anywhere else is not ours to read. */
export function resultsKey(location: S3Location): string {
  if (location.bucket !== bucketName('results')) throw new Error(`video clip in an unexpected bucket: ${location.bucket}`);
  return location.key;
}

/** The state StartClip hands on once the provider took a clip: checks start again, the deadline's start is kept. */
export function clipStartedState(
  state: OutputState,
  clip: { clipIndex: number; clipCount: number; operationName: string; model: string; clips: string[] },
): OutputState {
  return {
    userId: state.userId,
    jobId: state.jobId,
    output: state.output,
    ...clip,
    attempts: 0,
    status: 'running',
    ...(state.startedAt ? { startedAt: state.startedAt } : {}),
  };
}

export interface CheckClipOptions {
  video?: VideoStatusPort;
  now?: () => number;
}

export async function checkClip(state: OutputState, options: CheckClipOptions = {}): Promise<OutputState> {
  const video = options.video ?? getVideoStatus();
  const checked = await providerCall(() => video.check(state.operationName!));
  if (checked.state === 'running') {
    // Still running at the deadline: the output fails now, while the execution has time to refund it.
    assertBeforeDeadline(state, options.now?.() ?? Date.now());
    return { ...state, attempts: (state.attempts ?? 0) + 1, status: 'running' };
  }
  if (checked.state === 'failed') throw asWorkflowError(checked.error);
  const clips = [...(state.clips ?? []), resultsKey(checked.output)];
  const clipIndex = state.clipIndex ?? 0;
  if (clipIndex + 1 < (state.clipCount ?? 1)) return { ...state, clips, nextClip: clipIndex + 1, status: 'next-clip' };
  return { ...state, clips, status: 'completed' };
}
