import { GenerationDurations } from '@contracts/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api';
import { generationKeys } from './generations';
import { useUser } from './session-context';

/** The specification's expectation, said while there is no figure of the caller's own work yet. */
export const FALLBACK_EXPECTATION = 'expected 2-5 minutes';

/** "about 20 seconds", "about 2 minutes": a median duration rounded the way people say it. */
export function aboutDuration(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} seconds`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The median time of the caller's recent images and videos (GET /generation-durations). */
export const generationDurationsQueryOptions = (userId: string) =>
  queryOptions({
    // Starts with 'generations': a finished generation (a realtime notice) reads the figure again.
    queryKey: [...generationKeys.all(userId), 'durations'] as const,
    queryFn: () => apiRequest(GenerationDurations, '/generation-durations'),
    staleTime: 60_000,
  });

export function useGenerationDurations() {
  const user = useUser();
  return useQuery(generationDurationsQueryOptions(user.userId));
}

/**
 * "usually ready in about 20 seconds", from the median of the caller's recent work of that kind; the specification's
 * "expected 2-5 minutes" until there is such work.
 */
export function useTypicalTime(kind: 'image' | 'video'): string {
  const durations = useGenerationDurations();
  const seconds = durations.data?.[kind];
  return seconds === null || seconds === undefined ? FALLBACK_EXPECTATION : `usually ready in ${aboutDuration(seconds)}`;
}
