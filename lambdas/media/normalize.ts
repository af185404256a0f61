// A provider's clip made exactly what was ordered: the requested duration (trimmed, or looped when too short) and
// size (scaled to cover, then centre-cropped), at a constant frame rate, as H.264 MP4.
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
  // A clip shorter than ordered is repeated from its start (its seam is then measured and repaired like any other).
  const loopInput = source.durationSeconds < frames / DELIVERY_FPS ? ['-stream_loop', '-1'] : [];
  const { width, height } = size;
  await runTool('ffmpeg', [
    '-y',
    ...loopInput,
    '-i', input,
    '-map', '0:v:0',
    '-vf',
    `fps=${DELIVERY_FPS},scale=${width}:${height}:force_original_aspect_ratio=increase:flags=lanczos,` +
      `crop=${width}:${height},setsar=1`,
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
