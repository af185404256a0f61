// A job as GET /jobs lists it and as a video.* webhook event carries it: the job with a signed URL of its poster
// frame, and when that URL stops working. Its own module, so the streams' consumer (webhook events) reads jobs without the video
// feature's spending and source code.
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import type { JobListItem } from '../../contracts/video.js';
import { toJob, type JobItem } from '../../data/jobs-repo.js';
import { presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';

export async function jobListItems(jobs: JobItem[]): Promise<JobListItem[]> {
  const urlExpiresAt = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
  return Promise.all(
    jobs.map(async (job) => ({
      ...toJob(job),
      url_expires_at: urlExpiresAt,
      thumbnail_signed_url: job.thumbnail_key ? await presignDownload('results', job.thumbnail_key, 'image/jpeg', SIGNED_URL_SECONDS) : null,
    })),
  );
}
