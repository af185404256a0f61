import { CLOTHING_MAX_BYTES } from '@contracts/catalog';
import { checkImageFile, type ImageFileProblem } from '@contracts/upload-rules';
import { toast } from 'sonner';

/** Checks a picked file with the same rules the server applies; shows and returns the problem, if any. */
export function refuseFile(file: File, prefixName = false): ImageFileProblem | undefined {
  const problem = checkImageFile(file, CLOTHING_MAX_BYTES);
  if (problem) toast.error(problem.title, { description: prefixName ? `${file.name}: ${problem.description}` : problem.description });
  return problem;
}
