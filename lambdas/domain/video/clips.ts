// The video workflow's provider steps, one Map iteration per output: start clip i of the output (clip 0 from the
// product image, a later clip from the last frame of the one before, as the provider's plan says), then check it
// until it is ready. Each step takes the iteration's state and returns the next one; the ASL's Choice reads `status`.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_SIZES } from '../../contracts/catalog.js';
import { bucketName } from '../../data/tables.js';
import { getJob, markPaidOutputStarted, type JobItem } from '../../data/jobs-repo.js';
import { runTool } from '../../media/tools.js';
import type { ImageInput, S3Location } from '../../providers/ports.js';
import { getProviders, videoProviderIsPaid } from '../../providers/registry.js';
import { readObject } from '../../storage/objects.js';
import { rawClipKey } from './keys.js';
import { asWorkflowError, providerCall, WorkflowError } from './workflow-errors.js';

export interface OutputState {
  userId: string;
  jobId: string;
  /** Which output of the job (0-based). */
  output: number;
  /** The clip StartClip starts next (absent: the first). */
  nextClip?: number;
  clipIndex?: number;
  clipCount?: number;
  operationName?: string;
  model?: string;
  /** Keys (in the results bucket) of the clips that are ready, in order. */
  clips?: string[];
  /** Checks made of the current clip. */
  attempts?: number;
  status?: 'running' | 'next-clip' | 'completed';
}

export async function jobOf(state: Pick<OutputState, 'userId' | 'jobId'>): Promise<JobItem> {
  const job = await getJob(state.userId, state.jobId);
  if (!job) throw new Error(`video job ${state.jobId} not found`);
  return job;
}

/** A provider's output location as a key of the results bucket; a clip anywhere else is not ours to read. */
export function resultsKey(location: S3Location): string {
  if (location.bucket !== bucketName('results')) throw new Error(`video clip in an unexpected bucket: ${location.bucket}`);
  return location.key;
}

/** The last frame of a clip as a PNG (the keyframe of the next clip of a chain). */
export async function lastFrame(clipKey: string): Promise<ImageInput> {
  const directory = await mkdtemp(join(tmpdir(), 'modelloop-frame-'));
  try {
    const clip = join(directory, 'clip.mp4');
    const frame = join(directory, 'last.png');
    await writeFile(clip, await readObject('results', clipKey));
    // Decodes the final second; -update keeps overwriting one image, so the last frame decoded is what remains.
    await runTool('ffmpeg', ['-y', '-sseof', '-1', '-i', clip, '-map', '0:v:0', '-update', '1', '-f', 'image2', '-c:v', 'png', frame]);
    return { bytes: await readFile(frame), mimeType: 'image/png' };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export async function startClip(state: OutputState): Promise<OutputState> {
  const job = await jobOf(state);
  if (job.status !== 'generating') throw new WorkflowError('VideoJobEnded', 'The job has already ended.');
  const { video } = getProviders();
  const clipCount = video.planClips(job.duration).length;
  const clipIndex = state.nextClip ?? 0;
  const clips = state.clips ?? [];
  const image: ImageInput =
    clipIndex === 0
      ? { bytes: await readObject('results', job.source_key), mimeType: job.source_mime_type }
      : await lastFrame(clips[clipIndex - 1]!);
  // Recorded before the call: from here on, cancelling no longer refunds this output, since the provider charges us.
  if (clipIndex === 0 && videoProviderIsPaid() && !(await markPaidOutputStarted(job.user_id, job.id, state.output))) {
    throw new WorkflowError('VideoJobEnded', 'The job has already ended.');
  }
  const started = await providerCall(() =>
    video.start({
      image,
      prompt: job.prompt,
      durationSeconds: job.duration,
      aspectRatio: job.aspect_ratio,
      size: VIDEO_SIZES[job.aspect_ratio],
      output: { bucket: bucketName('results'), key: rawClipKey(job.user_id, job.id, state.output, clipIndex) },
      clipIndex,
    }),
  );
  return {
    userId: state.userId,
    jobId: state.jobId,
    output: state.output,
    clipIndex,
    clipCount,
    operationName: started.operationName,
    model: started.model,
    clips,
    attempts: 0,
    status: 'running',
  };
}

export async function checkClip(state: OutputState): Promise<OutputState> {
  const { video } = getProviders();
  const checked = await providerCall(() => video.check(state.operationName!));
  if (checked.state === 'running') return { ...state, attempts: (state.attempts ?? 0) + 1, status: 'running' };
  if (checked.state === 'failed') throw asWorkflowError(checked.error);
  const clips = [...(state.clips ?? []), resultsKey(checked.output)];
  const clipIndex = state.clipIndex ?? 0;
  if (clipIndex + 1 < (state.clipCount ?? 1)) return { ...state, clips, nextClip: clipIndex + 1, status: 'next-clip' };
  return { ...state, clips, status: 'completed' };
}
