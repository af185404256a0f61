// The job a video workflow task works on: it exists for as long as its workflow runs.
import { getJob, type JobItem } from '../../data/jobs-repo.js';

export async function jobOf(state: { userId: string; jobId: string }): Promise<JobItem> {
  const job = await getJob(state.userId, state.jobId);
  if (!job) throw new Error(`video job ${state.jobId} not found`);
  return job;
}
