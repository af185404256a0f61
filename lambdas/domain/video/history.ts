// A finished video job in the generation history (generation_type 'video'): one row per delivered video (each is a
// result people can view and download), or one failed row with the job's message when nothing was delivered. Rows
// are written in their final state with ids derived from the job, so a retried settle step writes nothing twice.
import { PRODUCT_NAME_PARAM } from '../../contracts/file-names.js';
import { createGeneration, type GenerationRecord } from '../../data/generations-repo.js';
import type { JobItem } from '../../data/jobs-repo.js';
import { engineModelName } from '../generation/engine-name.js';
import { videoResultId } from '../../contracts/video.js';

export async function recordVideoHistory(job: JobItem): Promise<void> {
  const base = {
    user_id: job.user_id,
    generation_type: 'video',
    operation: 'video',
    ai_model: job.model ?? engineModelName('video', 'unknown'),
    created_at: job.created_at,
    completed_at: job.updated_at,
    params: {
      prompt: job.prompt,
      duration: job.duration,
      aspect_ratio: job.aspect_ratio,
      output_count: job.output_count,
      job_id: job.id,
      ...(job.product_name ? { [PRODUCT_NAME_PARAM]: job.product_name } : {}),
    },
    source: { kind: 'upload', bucket: 'results', key: job.source_key },
  } satisfies Partial<GenerationRecord>;
  if (job.status === 'failed') {
    await createGeneration({ ...base, id: job.id, status: 'failed', credits_used: job.credits_charged, credits_refunded: job.credits_refunded, error_message: job.error_message ?? undefined });
    return;
  }
  const perOutput = job.credits_charged / job.output_count;
  await Promise.all(
    job.outputs.map((output) =>
      createGeneration({
        ...base,
        id: videoResultId(job.id, output.index),
        status: 'complete',
        credits_used: perOutput,
        result_key: output.video_key,
        thumbnail_key: output.thumbnail_key,
        result_content_type: 'video/mp4',
        width: output.width,
        height: output.height,
        params: { ...base.params, seam_score: output.seam_score, output: output.index + 1 },
      }),
    ),
  );
}
