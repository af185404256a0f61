import { listJobsRoute } from '../contracts/video.js';
import { route } from '../core/http.js';
import { recentJobs } from '../domain/video/jobs.js';

export const handler = route(listJobsRoute, async ({ caller }) => ({ items: await recentJobs(caller.userId) }));
