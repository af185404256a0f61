// How long an output of a video job may wait for its provider. The execution ends at the workflow's TimeoutSeconds
// (3600 s) whatever runs, and a chained video (16 s = two clips) waits for each clip in turn: two clips of 120
// checks, 10 s apart plus each check's own time, can pass it, and an execution that times out ends with no refund
// of its own (workflow-ended settles it later, all or nothing). So every output stops waiting at a deadline that
// leaves room for what must still run after the last check: one finalize, the job's completion or its failure, and
// that check itself. Past it, a clip still running (or a next clip not yet started) fails the output with
// VideoTimedOut: the Map's Catch turns it into a failed output, and CompleteJob refunds exactly the failed outputs.
import type { VideoOutputState } from '../../contracts/workflows.js';
import { WORKFLOW_TIMEOUT_SECONDS, WORKFLOWS } from '../../workflows.js';
import { VIDEO_ERROR, WorkflowError } from './workflow-errors.js';

const tasks = WORKFLOWS.video.tasks;
/** One finalize, then CompleteJob or MarkFailed, and the check that found the deadline passed: their timeouts. */
export const VIDEO_FINISH_RESERVE_SECONDS = tasks.FinalizeOutput.timeoutSeconds + tasks.CompleteJob.timeoutSeconds + tasks.MarkFailed.timeoutSeconds + tasks.CheckClip.timeoutSeconds;
/** Seconds after the execution's start past which no output waits for a clip: 3600 − 780 = 2820. */
export const VIDEO_CLIPS_DEADLINE_SECONDS = WORKFLOW_TIMEOUT_SECONDS.video - VIDEO_FINISH_RESERVE_SECONDS;

/** Throws VideoTimedOut once the deadline has passed (an execution started before `startedAt` was carried has none). */
export function assertBeforeDeadline(state: Pick<VideoOutputState, 'startedAt'>, now = Date.now()): void {
  if (!state.startedAt) return;
  const deadline = Date.parse(state.startedAt) + VIDEO_CLIPS_DEADLINE_SECONDS * 1000;
  if (now >= deadline) throw new WorkflowError(VIDEO_ERROR.timedOut, `The clips were not ready ${VIDEO_CLIPS_DEADLINE_SECONDS} s after the job started.`);
}
