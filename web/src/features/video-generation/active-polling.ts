// The polled job kept in the browser: localStorage `activePolling` holds the job and its operation name
// while polling, so a reload resumes it; it is removed when the job is done. The poll interval and the number of
// attempts are fixed (10 s, 120 attempts: 20 minutes); tests may shorten the interval with a localStorage knob.
import { VIDEO_POLL_INTERVAL_MS, VIDEO_POLL_MAX_ATTEMPTS } from '@contracts/catalog';

export const ACTIVE_POLLING_KEY = 'activePolling';
/** Test-only: a shorter poll interval in milliseconds (production never sets it). */
export const POLL_INTERVAL_OVERRIDE_KEY = 'modelloop.videoPollIntervalMs';

export interface ActivePolling {
  jobId: string;
  operationName: string;
  /** When the job was started (ms since epoch), so the elapsed timer survives a reload. */
  startedAt: number;
}

export function readActivePolling(): ActivePolling | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(ACTIVE_POLLING_KEY) ?? 'null') as Partial<ActivePolling> | null;
    if (!value || typeof value.jobId !== 'string') return undefined;
    return { jobId: value.jobId, operationName: value.operationName ?? '', startedAt: Number(value.startedAt) || Date.now() };
  } catch {
    return undefined;
  }
}

export function writeActivePolling(entry: ActivePolling): void {
  localStorage.setItem(ACTIVE_POLLING_KEY, JSON.stringify(entry));
}

export function clearActivePolling(): void {
  localStorage.removeItem(ACTIVE_POLLING_KEY);
}

export function pollSettings(): { intervalMs: number; maxAttempts: number } {
  const override = Number(localStorage.getItem(POLL_INTERVAL_OVERRIDE_KEY));
  return { intervalMs: override > 0 ? override : VIDEO_POLL_INTERVAL_MS, maxAttempts: VIDEO_POLL_MAX_ATTEMPTS };
}
