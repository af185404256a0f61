import { GenerationDurations } from '@contracts/api';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api';
import { useUser } from './session-context';

/** The promise made when there is no figure yet: the specification's expectation for a video. */
export const FALLBACK_EXPECTATION = '2–5 minutes';

/** "about 20 seconds", "about 2 minutes": a median duration rounded the way people say it. */
export function aboutDuration(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} seconds`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The median time of the caller's recent images and videos (GET /generation-durations). */
export function useGenerationDurations() {
  const user = useUser();
  return useQuery({
    queryKey: ['generation-durations', user.userId] as const,
    queryFn: () => apiRequest(GenerationDurations, '/generation-durations'),
    staleTime: 60_000,
  });
}

/** "Usually ready in about 20 seconds" from the caller's recent work of that kind, else the 2–5 minutes fallback. */
export function useTypicalTime(kind: 'image' | 'video'): string {
  const durations = useGenerationDurations();
  const seconds = durations.data?.[kind];
  return seconds === null || seconds === undefined ? `Usually ready in ${FALLBACK_EXPECTATION}` : `Usually ready in ${aboutDuration(seconds)}`;
}
