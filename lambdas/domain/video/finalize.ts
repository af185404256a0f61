// The video workflow's finalize step for one output: the provider's clips joined, made exactly the ordered duration
// and size (H.264, yuv420p, faststart, 24 fps), the loop sealed (the seam score measured, a failing loop repaired by
// cross-fading its tail into its head, measured again), a poster frame, and both stored in the results bucket. What
// is delivered is measured, never assumed: a file that isn't exact or whose seam still fails is refused.
//
// One encode per video: a clip that already is exactly the delivered format (the local engine renders it so) is
// delivered byte for byte; one whose only flaw is its index placement is remuxed; only a clip in another format, or
// whose loop fails, is encoded again.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_SIZES } from '../../contracts/catalog.js';
import { log } from '../../core/log.js';
import {
  DELIVERY_FPS,
  MAX_SEAM_SCORE,
  normalizeVideo,
  probeVideo,
  remuxFaststart,
  sealLoop,
  thumbnail,
  type NormalizeTarget,
  type Poster,
  type VideoProbe,
} from '../../media/index.js';
import { runTool } from '../../media/tools.js';
import { deleteObject, readObject, writeObject } from '../../storage/objects.js';
import type { OutputState } from './clips.js';
import { thumbnailKey, videoKey } from './keys.js';
import { jobOf } from './task-job.js';
import { isPreviewModel } from '../../contracts/preview.js';
import { jpegWithXmp, mp4WithXmp, xmpPacket, type DigitalSourceType } from '../images/xmp.js';
import type { OutputResult } from './settle.js';

type DeliveredOutput = Extract<OutputResult, { model: string }>;

/** Every way a clip differs from what is delivered (codec, pixel format, size, frame rate, length, faststart). */
export function formatDifferences(probe: VideoProbe, { durationSeconds, size }: NormalizeTarget): string[] {
  const frames = Math.round(durationSeconds * DELIVERY_FPS);
  const differences: string[] = [];
  if (probe.codec !== 'h264') differences.push(`codec ${probe.codec}, not h264`);
  if (probe.pixelFormat !== 'yuv420p') differences.push(`pixel format ${probe.pixelFormat}, not yuv420p`);
  if (probe.width !== size.width || probe.height !== size.height) {
    differences.push(`size ${probe.width}×${probe.height}, not ${size.width}×${size.height}`);
  }
  if (!(Math.abs(probe.fps - DELIVERY_FPS) < 0.001)) differences.push(`${probe.fps} fps, not ${DELIVERY_FPS}`);
  if (probe.frames !== frames) differences.push(`${probe.frames} frames, not ${frames}`);
  if (!probe.faststart) differences.push('index after the media (not faststart)');
  return differences;
}

/** Whether a clip already is exactly what is delivered, so re-encoding it would only lose quality and time. */
export function isExactly(probe: VideoProbe, target: NormalizeTarget): boolean {
  return formatDifferences(probe, target).length === 0;
}

/** Clips of a chain one after the other, without re-encoding (they come from one provider with one setting). */
async function joinClips(files: string[], directory: string): Promise<string> {
  if (files.length === 1) return files[0]!;
  const list = join(directory, 'clips.txt');
  await writeFile(list, files.map((file) => `file '${file}'`).join('\n'));
  const joined = join(directory, 'joined.mp4');
  await runTool('ffmpeg', ['-y', '-f', 'concat', '-safe', '0', '-i', list, '-map', '0:v:0', '-c', 'copy', '-movflags', '+faststart', joined]);
  return joined;
}

export interface DeliverableVideo {
  /** The file to deliver: one of the inputs itself when it already was exactly that. */
  file: string;
  probe: VideoProbe;
  poster: Poster;
  seamScore: number;
  originalSeamScore: number;
  /** What was done to the provider's clip, in order (none: delivered as it came). */
  steps: Array<'joined' | 'remuxed' | 'normalized' | 'repaired'>;
}

/**
 * The provider's clips (in order) made into the file to deliver, with its poster, in `directory`. Refuses (throws) a
 * result that is not exactly the delivered format or whose loop still fails.
 */
export async function deliverableVideo(files: string[], target: NormalizeTarget, directory: string): Promise<DeliverableVideo> {
  const steps: DeliverableVideo['steps'] = [];
  const joined = await joinClips(files, directory);
  if (joined !== files[0]) steps.push('joined');
  let exact = joined;
  let probe = await probeVideo(joined);
  const differences = formatDifferences(probe, target);
  if (differences.length === 1 && !probe.faststart) {
    exact = await remuxFaststart(joined, join(directory, 'faststart.mp4'));
    steps.push('remuxed');
    probe = await probeVideo(exact);
  } else if (differences.length > 0) {
    exact = await normalizeVideo(joined, target, join(directory, 'normalized.mp4'));
    steps.push('normalized');
    probe = await probeVideo(exact);
  }
  // The poster is the delivered file's first frame: made while the seam is measured, made again if the loop is repaired.
  const [sealed, firstPoster] = await Promise.all([sealLoop(exact, join(directory, 'sealed.mp4'), probe), thumbnail(exact)]);
  let poster = firstPoster;
  if (sealed.repaired) {
    steps.push('repaired');
    [probe, poster] = await Promise.all([probeVideo(sealed.file), thumbnail(sealed.file)]);
  }
  if (!isExactly(probe, target)) throw new Error(`finalized video is not exact: ${formatDifferences(probe, target).join('; ')}`);
  if (!(sealed.seamScore <= MAX_SEAM_SCORE)) throw new Error(`loop still fails after repair: seam score ${sealed.seamScore}`);
  return { file: sealed.file, probe, poster, seamScore: sealed.seamScore, originalSeamScore: sealed.originalSeamScore, steps };
}

export async function finalizeOutput(state: OutputState): Promise<DeliveredOutput> {
  const job = await jobOf(state);
  const target: NormalizeTarget = { durationSeconds: job.duration, size: VIDEO_SIZES[job.aspect_ratio] };
  const clipKeys = state.clips ?? [];
  if (clipKeys.length === 0) throw new Error(`output ${state.output} of job ${job.id} has no clips`);
  const directory = await mkdtemp(join(tmpdir(), 'modelloop-finalize-'));
  try {
    const files = await Promise.all(
      clipKeys.map(async (key, index) => {
        const file = join(directory, `clip-${index + 1}.mp4`);
        await writeFile(file, await readObject('results', key));
        return file;
      }),
    );
    const started = performance.now();
    const delivered = await deliverableVideo(files, target, directory);
    log.info('video output finalized', { jobId: job.id, output: state.output, steps: delivered.steps, ms: Math.round(performance.now() - started) });

    const deliveredKey = videoKey(job.user_id, job.id, state.output);
    const posterKey = thumbnailKey(job.user_id, job.id, state.output);
    // The video and its poster carry their provenance (IPTC DigitalSourceType in XMP), as every picture does.
    const model = state.model ?? job.model;
    const xmp = xmpPacket(videoSourceType(model), `ModelLoop ${model ?? 'video'}`);
    await Promise.all([
      readFile(delivered.file).then((bytes) => writeObject('results', deliveredKey, mp4WithXmp(bytes, xmp), 'video/mp4')),
      writeObject('results', posterKey, jpegWithXmp(delivered.poster.bytes, xmp), 'image/jpeg'),
    ]);
    // The provider's raw clips are no longer needed once the delivered file is stored.
    await Promise.all(clipKeys.map((key) => deleteObject('results', key))).catch((error: unknown) =>
      log.warn('raw clips not deleted', { jobId: job.id, error }),
    );
    return {
      index: state.output,
      video_key: deliveredKey,
      thumbnail_key: posterKey,
      seam_score: round(delivered.seamScore),
      original_seam_score: round(delivered.originalSeamScore),
      repaired: delivered.steps.includes('repaired'),
      duration_seconds: delivered.probe.durationSeconds,
      width: delivered.probe.width,
      height: delivered.probe.height,
      model: state.model ?? 'unknown',
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Three decimals; an infinite score (a jump in a video that otherwise never moves) is stored as a large number. */
const round = (score: number) => (Number.isFinite(score) ? Math.round(score * 1000) / 1000 : UNMEASURABLE_SEAM);
const UNMEASURABLE_SEAM = 1e6;

/**
 * A video's IPTC DigitalSourceType: a generative provider's clip is trained algorithmic media; the preview engine's
 * (the product photo moved on a drawn stage) is a composite with synthetic elements, as its pictures are.
 */
export function videoSourceType(model: string | null | undefined): DigitalSourceType {
  return isPreviewModel(model) ? 'compositeSynthetic' : 'trainedAlgorithmicMedia';
}
