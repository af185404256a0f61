import '../domain/caller-gate.js';
import { userRoute } from '../core/http.js';
import { recentJobs } from '../domain/video/jobs.js';

export const handler = userRoute({}, async ({ caller }) => ({ items: await recentJobs(caller.userId) }));
