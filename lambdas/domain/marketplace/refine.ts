// "Refine cutout": a finished packshot's photo and mask for the brush (GET /generations/{id}/cutout), and its render
// again from the seller's refined mask (PUT). No credit moves either way: the render is part of the packshot's purchase,
// of the same photo at the same preset, so nothing new is made for free; a row takes at most MAX_CUTOUT_REFINEMENTS
// renders (reserved by one conditional write). The refined mask is kept for the photo (packshot-job.ts), so a later
// packshot of it, at any preset, is cut out by it too.
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import type { Generation } from '../../contracts/generations.js';
import { MAX_CUTOUT_REFINEMENTS, type PackshotCutout } from '../../contracts/packshots.js';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.js';
import * as repo from '../../data/generations-repo.js';
import { ProviderError } from '../../providers/ports.js';
import { objectSize, readObject, writeObject } from '../../storage/objects.js';
import { presignDownload } from '../../storage/presign.js';
import { detectImageType } from '../images/file-type.js';
import { cutoutMaskKey } from '../images/result-files.js';
import { toGeneration } from '../generation/service.js';
import { storeResultFiles } from '../generation/result-store.js';
import { complianceReport } from './compliance.js';
import { cutoutSizeOf } from './packshot.js';
import { makePackshot, packshotJobOf, refinedMaskKey, type PackshotJob } from './packshot-job.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its header (the IHDR chunk follows the signature), or undefined when the bytes are no PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const notRefinable = (message: string) => conflict('NOT_REFINABLE', message);

/** The caller's finished packshot with its source photo, or the refusal that says why not. */
async function refinablePackshot(userId: string, id: string): Promise<{ generation: repo.GenerationRecord & { source: repo.GenerationSource }; job: PackshotJob }> {
  const generation = await repo.getGeneration(userId, id);
  if (!generation) throw notFound('This generation was not found.');
  const job = packshotJobOf(generation);
  if (!job) throw notRefinable('Only a packshot has a cutout to refine.');
  if (generation.status !== 'complete') throw notRefinable('This packshot is not finished yet.');
  const { source } = generation;
  if (!source || (await objectSize('results', cutoutMaskKey(userId, id))) === undefined) {
    throw notRefinable('This packshot was made before cutouts could be refined: make it again to refine it.');
  }
  return { generation: { ...generation, source }, job };
}

export async function packshotCutout(userId: string, id: string): Promise<PackshotCutout> {
  const { generation } = await refinablePackshot(userId, id);
  const maskKey = cutoutMaskKey(userId, id);
  const size = pngSize(await readObject('results', maskKey, 24));
  const photoType = detectImageType(await readObject(generation.source.bucket, generation.source.key, 16));
  if (!size || !photoType) throw notRefinable('This packshot\'s photo or mask is missing.');
  const [photoUrl, maskUrl, refined] = await Promise.all([
    presignDownload(generation.source.bucket, generation.source.key, photoType, SIGNED_URL_SECONDS),
    presignDownload('results', maskKey, 'image/png', SIGNED_URL_SECONDS),
    objectSize('results', refinedMaskKey(userId, generation.source)),
  ]);
  return { photoUrl, maskUrl, ...size, refined: refined !== undefined, refinementsLeft: Math.max(0, MAX_CUTOUT_REFINEMENTS - (generation.refinements ?? 0)) };
}

export async function refinePackshotCutout(userId: string, id: string, maskBase64: string): Promise<Generation> {
  const { generation, job } = await refinablePackshot(userId, id);
  const mask = Buffer.from(maskBase64, 'base64');
  const maskSize = pngSize(mask);
  if (!maskSize) throw badRequest('MASK_NOT_PNG', 'The mask must be a PNG image.');
  const photo = await readObject(generation.source.bucket, generation.source.key);
  const size = await cutoutSizeOf(photo);
  if (maskSize.width !== size.width || maskSize.height !== size.height) {
    throw badRequest('MASK_SIZE', `The mask must be ${size.width}×${size.height} px, the size of the photo as cut out (it is ${maskSize.width}×${maskSize.height}).`);
  }
  if (!(await repo.reserveRefinement(userId, id, MAX_CUTOUT_REFINEMENTS))) {
    throw conflict('REFINE_LIMIT', `This packshot was rendered from a refined cutout ${MAX_CUTOUT_REFINEMENTS} times: make a new packshot to refine it again.`);
  }
  let shot;
  try {
    shot = await makePackshot(generation, job, photo, mask);
  } catch (error) {
    // The seller's mask keeps nothing, or too little, of the photo: said as the cutout says it.
    if (error instanceof ProviderError) throw new AppError(400, 'MASK_EMPTY', error.message);
    throw error;
  }
  await writeObject('results', refinedMaskKey(userId, generation.source), mask, 'image/png');
  const compliance = await complianceReport(shot.bytes, shot.cutout);
  const files = await storeResultFiles(userId, id, shot);
  const refined = await repo.recordRefinedResult(userId, id, {
    ...files,
    result_content_type: shot.mimeType,
    width: shot.width,
    height: shot.height,
    ai_model: shot.model,
    compliance,
  });
  return toGeneration(refined);
}
