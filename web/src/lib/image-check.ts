import { checkImageFile, detectImageType, IMAGE_SIGNATURE_BYTES, INVALID_FILE_TYPE, type ImageFileProblem } from '@contracts/upload-rules';

/**
 * The rules the server applies to a picked file, checked in the browser before any preview: the declared type and
 * size, then the file's first bytes (a text file renamed .png is 'Invalid file type', not a broken preview).
 */
export async function checkPickedImage(file: File, maxBytes: number): Promise<ImageFileProblem | undefined> {
  const declared = checkImageFile(file, maxBytes);
  if (declared) return declared;
  const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer());
  return detectImageType(head) ? undefined : INVALID_FILE_TYPE;
}
