// How long the caller's recent work took: the figure behind "usually ready in about …". The median of the newest
// complete images (on-model, edit, upscale) and videos, from request to result; null when there is none yet.
import type { GenerationDurations } from '../../contracts/api.js';
import type { GenerationOperation } from '../../contracts/generations.js';
import { listRecentCompleteTimes } from '../../data/generations-repo.js';

/** How many of the newest complete generations are looked at. */
const RECENT = 60;
const IMAGE_OPERATIONS: readonly GenerationOperation[] = ['on-model', 'edit', 'upscale'];

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function recentDurations(userId: string): Promise<GenerationDurations> {
  const rows = await listRecentCompleteTimes(userId, RECENT);
  const image: number[] = [];
  // One video job writes one row per output, all with the job's times: count each job once.
  const videoJobs = new Map<string, number>();
  for (const row of rows) {
    const seconds = (Date.parse(row.completed_at ?? '') - Date.parse(row.created_at)) / 1000;
    if (!Number.isFinite(seconds) || seconds < 0) continue;
    if (row.operation === 'video') videoJobs.set(`${row.created_at}|${row.completed_at}`, seconds);
    else if (IMAGE_OPERATIONS.includes(row.operation)) image.push(seconds);
  }
  const video = [...videoJobs.values()];
  return { image: median(image), video: median(video), samples: { image: image.length, video: video.length } };
}
