// The video feature's server state: the job list (query key 'jobs', the realtime resource, so a change notice
// reloads it; polled only while the socket is down), what the engine will make of the motion prompt being typed
// (video-motion, free), and the video calls (generate-video, poll-operation, get-video-url) plus cancel.
import { cancelJobRoute, generateVideoRoute, getVideoUrlRoute, listJobsRoute, pollOperationRoute, readVideoMotionRoute } from '@contracts/video';
import type { LiveResource } from '@contracts/api';
import {
  type GenerateVideoRequest,
  type JobListItem,
} from '@contracts/video';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { callRoute } from '@/lib/api';
import { pollWhileDown, useLiveConnection, type LiveConnection } from '@/lib/live-connection';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';
import { urlRefreshMs } from '@/lib/signed-urls';

export const JOBS_QUERY_ROOT = 'jobs' satisfies LiveResource;
const GENERATING_REFRESH_MS = 10_000;

/** The newest 10 jobs, newest first; read again while one is generating and the socket is down (nothing pushes). */
export const jobsQueryOptions = (userId: string, live: LiveConnection = 'down') =>
  queryOptions({
    queryKey: [JOBS_QUERY_ROOT, userId] as const,
    queryFn: async (): Promise<JobListItem[]> => (await callRoute(listJobsRoute)).items,
    refetchInterval: (query) =>
      pollWhileDown(live, query.state.data?.some((job) => job.status === 'generating') ?? false, GENERATING_REFRESH_MS) ||
      urlRefreshMs((query.state.data ?? []).map((job) => (job.thumbnail_signed_url ? job.url_expires_at : null))),
  });

export function useJobs() {
  const user = useUser();
  const query = useQuery(jobsQueryOptions(user.userId, useLiveConnection()));
  useLoadErrorToast(query.error, 'Error', 'Failed to load video jobs');
  return query;
}

export function useRefreshJobs() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: jobsQueryOptions(user.userId).queryKey }), [queryClient, user.userId]);
}

export const startVideo = (body: GenerateVideoRequest, idempotencyKey: string) =>
  callRoute(generateVideoRoute, { body, idempotencyKey });

export const pollOperation = (jobId: string, operationName: string) =>
  callRoute(pollOperationRoute, { body: { jobId, operationName } });

export const getVideoUrl = (jobId: string) => callRoute(getVideoUrlRoute, { body: { jobId } });

export const cancelJob = (jobId: string) => callRoute(cancelJobRoute, { params: { id: jobId } });

/** How long the prompt rests before the engine is asked what it makes of it. */
const MOTION_READING_DELAY_MS = 400;

/** What the configured video engine will make of `prompt` (asked once the typing rests; nothing while it is empty). */
export function useMotionReading(prompt: string) {
  const [settled, setSettled] = useState(prompt.trim());
  useEffect(() => {
    const timer = setTimeout(() => setSettled(prompt.trim()), MOTION_READING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [prompt]);
  return useQuery({
    queryKey: ['video-motion', settled] as const,
    queryFn: () => callRoute(readVideoMotionRoute, { query: { prompt: settled } }),
    enabled: settled !== '',
    staleTime: Infinity,
  });
}
