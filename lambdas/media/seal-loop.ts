// The finalize step's loop guarantee in one call: measure the seam, repair when it is worse than an ordinary frame
// step, and report the score of what will be delivered.
import { repairLoop } from './repair-loop.js';
import { measureSeam } from './seam-score.js';

/** The largest seam score delivered: the seam step may be no larger than the median frame step. */
export const MAX_SEAM_SCORE = 1;

export interface SealedLoop {
  /** The clip to deliver: the input itself when its loop already held, else the repaired copy. */
  file: string;
  seamScore: number;
  repaired: boolean;
  /** The input's own score. */
  originalSeamScore: number;
}

/** `size`: the input's, when the caller has probed it already (the repaired copy keeps it). */
export async function sealLoop(input: string, repairedOutput?: string, size?: { width: number; height: number }): Promise<SealedLoop> {
  const original = await measureSeam(input, size);
  if (original.score <= MAX_SEAM_SCORE) {
    return { file: input, seamScore: original.score, repaired: false, originalSeamScore: original.score };
  }
  const file = await repairLoop(input, repairedOutput);
  const repaired = await measureSeam(file, size);
  return { file, seamScore: repaired.score, repaired: true, originalSeamScore: original.score };
}
