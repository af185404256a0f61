// How long a video usually takes on a deployment: the one figure the video screen and the landing page promise.
// It is the measured median (request → playable) of the video adapter the stage is configured with, written into the
// stage's /config.json (`expectedVideoSeconds`). An adapter with no measured figure promises nothing more precise
// than VIDEO_PROGRESS_FULL_SECONDS, the upper bound the progress bar fills over.

/**
 * Median seconds from the generate-video request to a playable 8 s 9:16 video, per video adapter, each measured:
 * `local` by `npx tsx bench/video.ts --repeat 5` on the twin (request → playable, 2 shared cores at load average 27,
 * November 2026: runs 39–117 s). Add an adapter's figure once it is measured on a deployed stage, never a guess.
 */
export const MEASURED_VIDEO_MEDIAN_SECONDS: Readonly<Record<string, number>> = {
  local: 58,
};

/** The figure for a stage's video adapter, or undefined when that adapter has not been measured. */
export const expectedVideoSeconds = (videoAdapter: string): number | undefined => MEASURED_VIDEO_MEDIAN_SECONDS[videoAdapter];

/** An upscale's target sizes (contracts/generations.ts UPSCALE_RESOLUTION_NAMES). */
export type UpscaleSize = '2k' | '4k' | '8k';

/**
 * Seconds an upscale takes, per upscale adapter and size, each measured: `local` is the engine's median printed by
 * `npx tsx bench/upscale.ts --runs 3` (a 1K on-model picture to each size, 2 cores at load 2-4, November 2026: 2K
 * 6.0 s, 4K 9.5 s, 8K 3.9 s; before ESRGAN ran on onnxruntime, 66 s and 54 s in the same window, and 75 s for 4K in
 * issue #41's newcomer's tour). 2K and 4K run the ESRGAN network (×2), 8K is Lanczos alone. The 4K target
 * (bench/run.ts `ratio upscale.4k-vs-video` ≤ 1) is no longer than a video's wait.
 */
export const MEASURED_UPSCALE_MEDIAN_SECONDS: Readonly<Record<string, Readonly<Record<UpscaleSize, number>>>> = {
  local: { '2k': 6, '4k': 9.5, '8k': 3.9 },
};

/** The figures for a stage's upscale adapter, or undefined when that adapter has not been measured. */
export const expectedUpscaleSeconds = (upscaleAdapter: string): Readonly<Record<UpscaleSize, number>> | undefined =>
  MEASURED_UPSCALE_MEDIAN_SECONDS[upscaleAdapter];
