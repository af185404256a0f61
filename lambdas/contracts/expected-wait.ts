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
