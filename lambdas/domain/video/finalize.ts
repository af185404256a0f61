// The video workflow's finalize step for one output: the provider's clips joined, made exactly the ordered duration
// and size (H.264, yuv420p, faststart, 24 fps), the loop sealed (DESIGN §4: the seam score measured, a failing loop
// repaired by cross-fading its tail into its head, measured again), a poster frame, and both stored in the results
// bucket. What is delivered is measured, never assumed: a file that isn't exact or whose seam still fails is refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_SIZES } from '../../contracts/catalog.js';
import { log } from '../../core/log.js';
import { DELIVERY_FPS, MAX_SEAM_SCORE, normalizeVideo, probeVideo, sealLoop, thumbnail, type NormalizeTarget, type VideoProbe } from '../../media/index.js';
import { runTool } from '../../media/tools.js';
import { deleteObject, readObject, writeObject } from '../../storage/objects.js';
import type { OutputState } from './clips.js';
import { thumbnailKey, videoKey } from './keys.js';
import { jobOf } from './task-job.js';
import type { OutputResult } from './settle.js';

type DeliveredOutput = Extract<OutputResult, { model: string }>;

/** Whether a clip already is exactly what is delivered, so re-encoding it would only lose quality. */
export function isExactly(probe: VideoProbe, { durationSeconds, size }: NormalizeTarget): boolean {
  return (
    probe.frames === Math.round(durationSeconds * DELIVERY_FPS) &&
    Math.abs(probe.fps - DELIVERY_FPS) < 0.001 &&
    probe.width === size.width &&
    probe.height === size.height &&
    probe.codec === 'h264' &&
    probe.pixelFormat === 'yuv420p'
  );
}

/** Clips of a chain one after the other, without re-encoding (they come from one provider with one setting). */
async function joinClips(files: string[], directory: string): Promise<string> {
  if (files.length === 1) return files[0]!;
  const list = join(directory, 'clips.txt');
  await writeFile(list, files.map((file) => `file '${file}'`).join('\n'));
  const joined = join(directory, 'joined.mp4');
  await runTool('ffmpeg', ['-y', '-f', 'concat', '-safe', '0', '-i', list, '-map', '0:v:0', '-c', 'copy', joined]);
  return joined;
}

export async function finalizeOutput(state: OutputState): Promise<DeliveredOutput> {
  const job = await jobOf(state);
  const target: NormalizeTarget = { durationSeconds: job.duration, size: VIDEO_SIZES[job.aspect_ratio] };
  const clipKeys = state.clips ?? [];
  if (clipKeys.length === 0) throw new Error(`output ${state.output} of job ${job.id} has no clips`);
  const directory = await mkdtemp(join(tmpdir(), 'modelloop-finalize-'));
  try {
    const files: string[] = [];
    for (const [index, key] of clipKeys.entries()) {
      const file = join(directory, `clip-${index + 1}.mp4`);
      await writeFile(file, await readObject('results', key));
      files.push(file);
    }
    const joined = await joinClips(files, directory);
    const exact = isExactly(await probeVideo(joined), target) ? joined : await normalizeVideo(joined, target, join(directory, 'normalized.mp4'));
    const sealed = await sealLoop(exact, join(directory, 'sealed.mp4'));
    const delivered = await probeVideo(sealed.file);
    if (!isExactly(delivered, target)) throw new Error(`finalized video is not exact: ${JSON.stringify(delivered)}`);
    if (!(sealed.seamScore <= MAX_SEAM_SCORE)) throw new Error(`loop still fails after repair: seam score ${sealed.seamScore}`);

    const video = videoKey(job.user_id, job.id, state.output);
    const poster = thumbnailKey(job.user_id, job.id, state.output);
    await writeObject('results', video, await readFile(sealed.file), 'video/mp4');
    await writeObject('results', poster, (await thumbnail(sealed.file)).bytes, 'image/jpeg');
    // The provider's raw clips are no longer needed once the delivered file is stored.
    await Promise.all(clipKeys.map((key) => deleteObject('results', key))).catch((error: unknown) =>
      log.warn('raw clips not deleted', { jobId: job.id, error }),
    );
    return {
      index: state.output,
      video_url: video,
      thumbnail_url: poster,
      seam_score: round(sealed.seamScore),
      original_seam_score: round(sealed.originalSeamScore),
      repaired: sealed.repaired,
      duration_seconds: delivered.durationSeconds,
      width: delivered.width,
      height: delivered.height,
      model: state.model ?? 'unknown',
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Three decimals; an infinite score (a jump in a video that otherwise never moves) is stored as a large number. */
const round = (score: number) => (Number.isFinite(score) ? Math.round(score * 1000) / 1000 : UNMEASURABLE_SEAM);
const UNMEASURABLE_SEAM = 1e6;
