// Result files are downloaded by a plain fetch of the signed result URL (no server round trip), saved under fixed
// names: pictures as .png, videos as <type>-<first 8 characters of the id>.mp4.
import type { Generation } from '@contracts/generations';
import { toast } from 'sonner';

export function generationFileName(generation: Pick<Generation, 'id' | 'generation_type' | 'result_content_type'>): string {
  const extension = generation.result_content_type === 'video/mp4' ? 'mp4' : 'png';
  return `${generation.generation_type}-${generation.id.slice(0, 8)}.${extension}`;
}

/** Fetches the file and saves it; a failure shows the catalogue's 'Download failed' / 'Failed to download file'. */
export async function downloadFile(url: string, fileName: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`status ${response.status}`);
    const objectUrl = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
    return true;
  } catch {
    toast.error('Download failed', { description: 'Failed to download file' });
    return false;
  }
}

/**
 * Saves a large file straight from a signed attachment URL (Content-Disposition: attachment): the browser streams it
 * to disk, nothing is held in the page (a zip of a batch may be gigabytes).
 */
export function saveAttachment(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
