// The perfect-loop guarantee as a number (every delivered video loops without a visible jump): how big the jump from the last frame back to the first is,
// measured against an ordinary frame-to-frame step of the same video.
import { probeVideo } from './probe.js';
import { readFrames } from './raw-video.js';

/** Frames are compared as grayscale at this width (aspect kept), which also evens out codec noise. */
const SEAM_ANALYSIS_WIDTH = 128;

export interface SeamMeasurement {
  /** seamDifference / medianStepDifference; ≤ 1 means the seam is no worse than an ordinary step. */
  score: number;
  /** Mean absolute difference (0–255 per pixel) between the last frame and the first. */
  seamDifference: number;
  /** Median of the mean absolute differences between consecutive frames. */
  medianStepDifference: number;
  frames: number;
}

function meanAbsoluteDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The score from the step differences. A video whose frames never change has median 0: its loop is exact when the
 * seam doesn't change either (score 0), and infinitely bad when only the seam jumps.
 */
export function seamScoreOf(seamDifference: number, stepDifferences: readonly number[]): number {
  const typical = stepDifferences.length ? median(stepDifferences) : 0;
  if (typical === 0) return seamDifference === 0 ? 0 : Number.POSITIVE_INFINITY;
  return seamDifference / typical;
}

/** `size`: the video's, when the caller has probed it already. */
export async function measureSeam(file: string, size?: { width: number; height: number }): Promise<SeamMeasurement> {
  const { width, height } = size ?? (await probeVideo(file));
  const analysis = {
    width: SEAM_ANALYSIS_WIDTH,
    height: Math.max(2, 2 * Math.round((SEAM_ANALYSIS_WIDTH * height) / width / 2)),
    pixelFormat: 'gray' as const,
  };
  let first: Buffer | undefined;
  let previous: Buffer | undefined;
  const steps: number[] = [];
  for await (const frame of readFrames(file, analysis)) {
    if (previous) steps.push(meanAbsoluteDifference(previous, frame));
    first ??= frame;
    previous = frame;
  }
  if (!first || !previous) throw new Error(`${file} has no frames`);
  const seamDifference = meanAbsoluteDifference(previous, first);
  return {
    score: seamScoreOf(seamDifference, steps),
    seamDifference,
    medianStepDifference: steps.length ? median(steps) : 0,
    frames: steps.length + 1,
  };
}

export async function seamScore(file: string): Promise<number> {
  return (await measureSeam(file)).score;
}
