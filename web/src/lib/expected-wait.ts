// The one promise of how long a video takes: the measured median of the stage's video adapter, from /config.json
// (`expectedVideoSeconds`), said the same way on the landing page and the video screen. Without a measured figure both
// fall back to the 2-5 minutes that the progress bar's 300 s bound stands for. Kept light: the landing page loads it.
import { VIDEO_PROGRESS_FULL_SECONDS } from '@contracts/landing';
import { useEffect, useState } from 'react';
import { fetchConfigJson } from './config-json';

/** The expectation said while the stage has no measured figure. */
export const FALLBACK_EXPECTATION = 'expected 2-5 minutes';

/** "about 20 seconds", "about 2 minutes": a median duration rounded the way people say it. */
export function aboutDuration(seconds: number): string {
  const fives = Math.max(5, Math.round(seconds / 5) * 5);
  if (fives < 60) return `about ${fives} seconds`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The stage's measured median seconds for a video; undefined while config.json loads or when there is none. */
export function useExpectedVideoSeconds(): number | undefined {
  return positive(useConfigTimes()?.expectedVideoSeconds);
}

/** The stage's measured median seconds for an upscale to `size` ('2k', '4k', '8k'); undefined when there is none. */
export function useExpectedUpscaleSeconds(size: string | undefined): number | undefined {
  const times = useConfigTimes()?.expectedUpscaleSeconds;
  return size && typeof times === 'object' && times !== null ? positive((times as Record<string, unknown>)[size]) : undefined;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && value > 0 ? value : undefined);

/** config.json's measured times, read without zod (the landing page's first load stays small); null while loading. */
function useConfigTimes(): { expectedVideoSeconds?: unknown; expectedUpscaleSeconds?: unknown } | null {
  const [json, setJson] = useState<{ expectedVideoSeconds?: unknown; expectedUpscaleSeconds?: unknown } | null>(null);
  useEffect(() => {
    let live = true;
    fetchConfigJson()
      .then((loaded) => {
        if (live) setJson(loaded as typeof json);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return json;
}

/** The video screen's expectation beside its timer: "usually ready in about 10 seconds", or the fallback. */
export function expectedVideoPhrase(seconds: number | undefined): string {
  return seconds === undefined ? FALLBACK_EXPECTATION : `usually ready in ${aboutDuration(seconds)}`;
}

/** The landing page's sentence: the measured median, and the upper bound the progress bar fills over. */
export function landingVideoPromise(seconds: number | undefined): string {
  if (seconds === undefined) return 'Most videos are ready within 2-5 minutes, often much sooner';
  return `Most videos are ready in ${aboutDuration(seconds)}, and in at most ${VIDEO_PROGRESS_FULL_SECONDS / 60} minutes`;
}
