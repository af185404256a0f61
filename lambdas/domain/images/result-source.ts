// One of the caller's finished images as the input of more work (edit, upscale, a video, a batch entry): the
// caller's own generation, complete, with an image result. Someone else's id is not found, as an unknown one. It
// decodes nothing, so routes that never look at pixels (generate-batch) can use it without carrying the decoder.
import { AppError, notFound } from '../../core/errors.js';
import { getGeneration, type GenerationRecord, type GenerationSource } from '../../data/generations-repo.js';
import { productNameOf } from '../../contracts/file-names.js';
import { recordedTitle } from '../generation/titles.js';

export interface FinishedImageSource {
  source: GenerationSource;
  generation: GenerationRecord;
  /** The picture's size, as its row recorded it (rows of old may have none). */
  size?: { width: number; height: number };
  /** What the pickers call it (generation/titles.ts). */
  title: string;
  /** The product it shows, as its row recorded it (file names). */
  productName?: string;
}

/** The caller's finished image `generationId`: 404 when it is not the caller's, 409 IMAGE_NOT_READY when it has no image. */
export async function finishedImageSource(userId: string, generationId: string): Promise<FinishedImageSource> {
  const generation = await getGeneration(userId, generationId);
  if (!generation) throw notFound('This generation was not found.');
  if (generation.status !== 'complete' || !generation.result_key || !generation.result_content_type?.startsWith('image/')) {
    throw new AppError(409, 'IMAGE_NOT_READY', 'This generation has no finished image to use.');
  }
  return {
    source: { kind: 'generation', bucket: 'results', key: generation.result_key, ref: generation.id },
    generation,
    title: recordedTitle(generation),
    ...(productNameOf(generation.params) ? { productName: productNameOf(generation.params) } : {}),
    ...(generation.width && generation.height ? { size: { width: generation.width, height: generation.height } } : {}),
  };
}
