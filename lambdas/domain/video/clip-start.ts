// The video workflow's StartClip step: starts clip i of an output with the configured provider, clip 0 from the
// product image and a later clip from the last frame of the one before (taken with ffmpeg). It reaches the full
// video adapters (image code, sharp), so only the StartClip function imports it; checking is clips.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_SIZES } from '../../contracts/catalog.js';
import { bucketName } from '../../data/tables.js';
import { runTool } from '../../media/tools.js';
import { emitMetrics, MetricUnit } from '../../core/metrics.js';
import { traced } from '../../core/tracing.js';
import type { ImageInput } from '../../providers/ports.js';
import { markPaidOutputStarted } from '../../data/jobs-repo.js';
import { getProviders, videoProviderIsPaid } from '../../providers/registry.js';
import { readObject } from '../../storage/objects.js';
import { clipStartedState, type OutputState } from './clips.js';
import { assertBeforeDeadline } from './deadline.js';
import { rawClipKey } from './keys.js';
import { jobOf } from './task-job.js';
import { providerCall, WorkflowError } from './workflow-errors.js';

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
  // A next clip started past the deadline could not be ready in time: the output fails and is refunded now.
  assertBeforeDeadline(state);
  const job = await jobOf(state);
  if (job.status !== 'generating') throw new WorkflowError('VideoJobEnded', 'The job has already ended.');
  const { video } = getProviders();
  const plan = video.planClips(job.duration);
  const clipCount = plan.length;
  const clipIndex = state.nextClip ?? 0;
  const clips = state.clips ?? [];
  const source = async (): Promise<ImageInput> => ({ bytes: await readObject('results', job.source_key), mimeType: job.source_mime_type });
  // A clip keyed by the source starts from the product image (every Omni clip); a chained one from the clip before.
  const image: ImageInput = clipIndex === 0 || plan[clipIndex]?.keyframe === 'source' ? await source() : await lastFrame(clips[clipIndex - 1]!);
  // The last clip of a chain ends on the product image, so the video's loop closes on the same picture.
  const endImage = plan[clipIndex]?.endKeyframe === 'source' ? await source() : undefined;
  // Recorded before the call: from here on, cancelling no longer refunds this output, since the provider charges us.
  if (clipIndex === 0 && videoProviderIsPaid() && !(await markPaidOutputStarted(job.user_id, job.id, state.output))) {
    throw new WorkflowError('VideoJobEnded', 'The job has already ended.');
  }
  const startedAt = performance.now();
  const started = await traced('provider video start', { userId: state.userId, jobId: state.jobId }, () =>
    providerCall(() =>
      video.start({
      image,
      prompt: job.prompt,
      durationSeconds: job.duration,
      aspectRatio: job.aspect_ratio,
      size: VIDEO_SIZES[job.aspect_ratio],
      output: { bucket: bucketName('results'), key: rawClipKey(job.user_id, job.id, state.output, clipIndex) },
        ...(endImage ? { endImage } : {}),
        clipIndex,
        variant: state.output,
      }),
    ),
  ).finally(() => emitMetrics({ ProviderLatency: Math.round(performance.now() - startedAt) }, { type: 'video-start' }, MetricUnit.Milliseconds));
  return clipStartedState(state, { clipIndex, clipCount, operationName: started.operationName, model: started.model, clips });
}
