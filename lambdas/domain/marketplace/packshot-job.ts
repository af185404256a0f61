// A packshot generation's work (a POST /generate-packshot row, or a batch entry's 'Packshot' photo): its frame from
// the row's params, the seller's refined cutout mask if one is stored for its source photo, the render, and the mask
// it was cut out by, kept beside the result for the "Refine cutout" brush. Shared by the generation workflow's
// Process task (lambdas/domain/generation/work.ts) and the refine route (refine.ts).
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { BATCH_PACKSHOT_SHOT, PRODUCT_TYPES, type ProductType } from '../../contracts/catalog.js';
import { PACKSHOT_FORMATS, type PackshotFrame } from '../../contracts/marketplace.js';
import type { GenerationRecord, GenerationSource } from '../../data/generations-repo.js';
import { objectSize, readObject, writeObject } from '../../storage/objects.js';
import { cutoutMaskKey } from '../images/result-files.js';
import { renderPackshot, type Packshot } from './packshot.js';

/** A packshot's frame (its size, fill, ground and format), as POST /generate-packshot and a batch's packshot record it. */
export const PackshotFrameParams = z.object({
  width: z.number().int(),
  height: z.number().int(),
  fill: z.number(),
  background: z.string(),
  format: z.enum(PACKSHOT_FORMATS),
});
const PackshotParams = PackshotFrameParams.extend({ productType: z.enum(PRODUCT_TYPES), shadow: z.boolean() });
/** A batch entry's packshot photo: the preset's frame, its backdrop the ground (lambdas/domain/batch/service.ts). */
const BatchPackshotParams = PackshotFrameParams.omit({ background: true }).extend({
  cameraAngle: z.literal(BATCH_PACKSHOT_SHOT),
  backdrop: z.string(),
  /** Photos stored before batch entries had a product type are clothing. */
  productType: z.enum(PRODUCT_TYPES).default('clothing'),
});

export interface PackshotJob {
  frame: PackshotFrame;
  productType: ProductType;
  /** A batch's packshot has no contact shadow. */
  shadow: boolean;
}

/** The packshot a row makes, or undefined when the row is no packshot (another operation, or a batch's camera angle). */
export function packshotJobOf(generation: Pick<GenerationRecord, 'operation' | 'params'>): PackshotJob | undefined {
  if (generation.operation === 'packshot') {
    const { productType, shadow, ...frame } = PackshotParams.parse(generation.params);
    return { frame, productType, shadow };
  }
  if (generation.operation !== 'batch') return undefined;
  const batch = BatchPackshotParams.safeParse(generation.params);
  if (!batch.success) return undefined;
  const { width, height, fill, format, backdrop, productType } = batch.data;
  return { frame: { width, height, fill, format, background: backdrop }, productType, shadow: false };
}

/**
 * Where the seller's refined mask of one source photo is kept (results bucket, the owner's folder): every packshot of
 * that photo, a re-render or another preset, is cut out by it.
 */
export function refinedMaskKey(userId: string, source: Pick<GenerationSource, 'bucket' | 'key'>): string {
  const photo = createHash('sha256').update(`${source.bucket}/${source.key}`).digest('hex').slice(0, 32);
  return `${userId}/cutout-masks/${photo}.png`;
}

/** The seller's refined mask of this photo, if there is one. */
async function readRefinedMask(userId: string, source: GenerationSource): Promise<Buffer | undefined> {
  const key = refinedMaskKey(userId, source);
  return (await objectSize('results', key)) === undefined ? undefined : readObject('results', key);
}

/**
 * Renders the row's packshot from its source photo: by `mask` when given (the seller's edit), else by the refined mask
 * stored for the photo, else by the automatic cutout. The mask it was cut out by is stored beside the result.
 */
export async function makePackshot(generation: GenerationRecord, job: PackshotJob, photo: Buffer, mask?: Buffer): Promise<Packshot> {
  const refined = mask ?? (generation.source ? await readRefinedMask(generation.user_id, generation.source) : undefined);
  const shot = await renderPackshot(photo, job.frame, { productType: job.productType, shadow: job.shadow, ...(refined ? { mask: refined } : {}) });
  await writeObject('results', cutoutMaskKey(generation.user_id, generation.id), shot.mask.png, 'image/png');
  return shot;
}
