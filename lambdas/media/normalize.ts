// A provider's clip made exactly what was ordered: the requested duration and size at a constant frame rate, as
// H.264 MP4. Longer footage is retimed to the exact length, never trimmed: a looping clip's closing frames return to
// its first, and a trim would cut them. A clip shorter than ordered is repeated from its start. A clip of the ordered
// ratio is scaled to cover (rounding trimmed evenly); one of another ratio (Gemini Omni's 9:16 for a 1:1 order) is fitted
// whole and padded with a blurred, enlarged copy of itself, so the product is never cut.
import { probeVideo } from './probe.js';
import { H264_MP4_OUTPUT_ARGS, outputBeside, runTool } from './tools.js';

/** Every delivered video runs at this rate, so a duration is a whole number of frames. */
export const DELIVERY_FPS = 24;

export interface NormalizeTarget {
  durationSeconds: number;
  size: { width: number; height: number };
}

/** Writes the normalized clip (by default beside the input, `<name>.normalized.mp4`) and returns its path. */
export async function normalizeVideo(
  input: string,
  { durationSeconds, size }: NormalizeTarget,
  output = outputBeside(input, 'normalized'),
): Promise<string> {
  const frames = Math.round(durationSeconds * DELIVERY_FPS);
  const source = await probeVideo(input);
  const ordered = frames / DELIVERY_FPS;
  // A clip shorter than ordered is repeated from its start (its seam is then measured and repaired like any other).
  const loopInput = source.durationSeconds < ordered ? ['-stream_loop', '-1'] : [];
  const retime = source.durationSeconds > ordered + 0.5 / DELIVERY_FPS ? `setpts=${(ordered / source.durationSeconds).toFixed(6)}*PTS,` : '';
  const { width, height } = size;
  const sameRatio = Math.abs(Math.log((source.width / source.height) / (width / height))) < 0.02;
  const cover = `scale=${width}:${height}:force_original_aspect_ratio=increase:flags=lanczos,crop=${width}:${height}`;
  const fitted = sameRatio
    ? cover
    : `split[fill][whole];[fill]${cover},boxblur=24:2[back];` +
      `[whole]scale=${width}:${height}:force_original_aspect_ratio=decrease:flags=lanczos[front];` +
      `[back][front]overlay=(W-w)/2:(H-h)/2`;
  await runTool('ffmpeg', [
    '-y',
    ...loopInput,
    '-i', input,
    '-map', '0:v:0',
    '-vf',
    `${retime}fps=${DELIVERY_FPS},${fitted},setsar=1`,
    '-frames:v', String(frames),
    ...H264_MP4_OUTPUT_ARGS,
    output,
  ]);
  return output;
}

/**
 * A clip already in the delivered format but with its index (moov) after the media: the same streams copied, index
 * first. No re-encode.
 */
export async function remuxFaststart(input: string, output = outputBeside(input, 'faststart')): Promise<string> {
  await runTool('ffmpeg', ['-y', '-i', input, '-map', '0:v:0', '-c', 'copy', '-movflags', '+faststart', '-an', '-f', 'mp4', output]);
  return output;
}
