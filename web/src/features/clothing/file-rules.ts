import { CLOTHING_MAX_BYTES } from '@contracts/catalog';
import type { ImageFileProblem } from '@contracts/upload-rules';
import { toast } from 'sonner';
import { checkPickedImage } from '@/lib/image-check';

/** Checks a picked file (type, size, first bytes) with the server's rules; shows and returns the problem, if any. */
export async function refuseFile(file: File, prefixName = false): Promise<ImageFileProblem | undefined> {
  const problem = await checkPickedImage(file, CLOTHING_MAX_BYTES);
  if (problem) toast.error(problem.title, { description: prefixName ? `${file.name}: ${problem.description}` : problem.description });
  return problem;
}
