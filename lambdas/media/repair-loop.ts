// Seals the loop of a clip that doesn't end where it starts, keeping its frame count (so its duration) exact.
//
// The clip's last F frames are cross-faded into its first F frames, which turns the N source frames into a circle of
// L = N − F frames that flows on without a jump. N output frames are then sampled around that circle: one source frame
// per output frame for most of the clip (untouched frames), and an eased slow-down over a window of 4F output frames
// centred on the seam absorbs the F missing frames (linear blends between neighbouring frames there). The seam itself
// sits at the slowest point, half a frame step, and in untouched footage just after the cross-fade — so the seam
// step is about half an ordinary step. The repaired clip starts about F frames into the original.
import { probeVideo } from './probe.js';
import { openH264Encoder, readFrames } from './raw-video.js';
import { outputBeside } from './tools.js';

export const LOOP_CROSSFADE_SECONDS = 0.5;
/** Speed at the seam relative to the original (the window's width follows from it: 2F / (1 − this)). */
const SEAM_SPEED = 0.5;

function mix(a: Buffer, b: Buffer, weight: number): Buffer {
  if (weight <= 0) return a;
  if (weight >= 1) return b;
  const out = Buffer.allocUnsafe(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Math.round(a[i]! + (b[i]! - a[i]!) * weight);
  return out;
}

/**
 * Where each output frame k samples the unrolled circle, in source-frame units. Indices below L are source frames,
 * L..N−1 are the cross-fade (tail frame m blended into head frame m − L), and N is source frame F again.
 */
export function loopSamplePositions(frameCount: number, crossfadeFrames: number): number[] {
  const n = frameCount;
  const f = crossfadeFrames;
  const halfWindow = f / (1 - SEAM_SPEED); // slowing 1 → SEAM_SPEED over ±halfWindow steps drops exactly f frames
  const steps = Array.from({ length: n }, (_, k) => {
    const fromSeam = k + 1 <= n / 2 ? k + 1 : k + 1 - n; // step n−1 (last → first frame) is the seam: 0
    if (Math.abs(fromSeam) >= halfWindow) return 1;
    return 1 - ((1 - SEAM_SPEED) * (1 + Math.cos((Math.PI * fromSeam) / halfWindow))) / 2;
  });
  const relative = [0];
  for (let k = 1; k < n; k++) relative.push(relative[k - 1]! + steps[k - 1]!);
  // The first output frame sits just after the cross-fade (the seam step spans source frames F−1..F) and the
  // full-speed middle of the clip lands exactly on source frames, so it is copied untouched.
  const start = f - SEAM_SPEED;
  const middle = start + relative[n >> 1]!;
  const offset = start + (Math.ceil(middle - 1e-9) - middle);
  return relative.map((position) => offset + position);
}

/** Writes the repaired clip (by default beside the input, `<name>.looped.mp4`) and returns its path. */
export async function repairLoop(input: string, output = outputBeside(input, 'looped')): Promise<string> {
  const { width, height, fps, frames: n } = await probeVideo(input);
  const f = Math.min(2 * Math.round((fps * LOOP_CROSSFADE_SECONDS) / 2), 2 * Math.floor((n - 2) / 8));
  if (f < 2) throw new Error(`${input} is too short to repair its loop (${n} frames)`);
  const l = n - f;
  const positions = loopSamplePositions(n, f);
  const format = { width, height, pixelFormat: 'yuv420p' as const };
  const encoder = openH264Encoder(output, { ...format, fps });
  try {
    const head: Buffer[] = [];
    let previous: Buffer | undefined; // circle frame `available − 1`
    let current: Buffer | undefined; // circle frame `available`
    let available = f - 2; // highest circle index built so far
    let next = 0; // next output frame
    const emitReady = async () => {
      while (next < n) {
        const position = positions[next]!;
        const base = Math.floor(position + 1e-6);
        const weight = position - base < 1e-6 ? 0 : position - base;
        if (base + (weight ? 1 : 0) > available) return;
        await encoder.write(base === available ? current! : mix(previous!, current!, weight));
        next++;
      }
    };
    const advance = async (frame: Buffer) => {
      previous = current;
      current = frame;
      available++;
      await emitReady();
    };
    let index = 0;
    for await (const frame of readFrames(input, format)) {
      if (index <= f) head.push(frame);
      if (index >= l) await advance(mix(frame, head[index - l]!, (index - l) / (f - 1)));
      else if (index >= f - 1) await advance(frame);
      index++;
    }
    if (index !== n) throw new Error(`${input} decoded to ${index} frames, ffprobe counted ${n}`);
    await advance(head[f]!);
    if (next !== n) throw new Error(`loop repair wrote ${next} of ${n} frames`);
    await encoder.finish();
  } catch (error) {
    await encoder.abort();
    throw error;
  }
  return output;
}
