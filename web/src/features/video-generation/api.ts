// The video feature's server state: the job list (query key 'jobs', the realtime resource, so a change notice
// reloads it) and the video calls (generate-video, poll-operation, get-video-url) plus cancel.
import type { LiveResource } from '@contracts/api';
import {
  GenerateVideoResponse,
  GetVideoUrlResponse,
  JobsResponse,
  PollOperationResponse,
  VideoJob,
  type GenerateVideoRequest,
  type JobListItem,
} from '@contracts/video';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';
import { urlRefreshMs } from '@/lib/signed-urls';

export const JOBS_QUERY_ROOT = 'jobs' satisfies LiveResource;
const GENERATING_REFRESH_MS = 10_000;

/** The newest 10 jobs, newest first; read again while one is generating (the fallback when no socket pushes). */
export function useJobs() {
  const user = useUser();
  const query = useQuery({
    queryKey: [JOBS_QUERY_ROOT, user.userId],
    queryFn: async (): Promise<JobListItem[]> => (await apiRequest(JobsResponse, '/jobs')).items,
    refetchInterval: (current) =>
      current.state.data?.some((job) => job.status === 'generating')
        ? GENERATING_REFRESH_MS
        : urlRefreshMs((current.state.data ?? []).map((job) => (job.thumbnail_signed_url ? job.url_expires_at : null))),
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load video jobs');
  return query;
}

export function useRefreshJobs() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: [JOBS_QUERY_ROOT] }), [queryClient]);
}

export const startVideo = (body: GenerateVideoRequest, idempotencyKey: string) =>
  apiRequest(GenerateVideoResponse, '/generate-video', { method: 'POST', body, idempotencyKey });

export const pollOperation = (jobId: string, operationName: string) =>
  apiRequest(PollOperationResponse, '/poll-operation', { method: 'POST', body: { jobId, operationName } });

export const getVideoUrl = (jobId: string) => apiRequest(GetVideoUrlResponse, '/get-video-url', { method: 'POST', body: { jobId } });

export const cancelJob = (jobId: string) => apiRequest(VideoJob, `/jobs/${encodeURIComponent(jobId)}/cancel`, { method: 'POST' });
