// Result files are saved under the names a seller gives them (contracts/file-names.ts, the same function as the
// server's `file_name` and its zip entries): product, kind, size or marketplace, and the extension of the bytes.
// Pictures are fetched from their signed result URL and saved from memory. Videos are saved by following a link the
// server signed as an attachment (Content-Disposition names the file): nothing reads the file across origins, so the
// copy the page's <video> element loaded without CORS cannot refuse the download.
import type { Generation } from '@contracts/generations';
import { getVideoUrlRoute } from '@contracts/video';
import { toast } from 'sonner';
import { callRoute } from './api';

export { generationFileName } from '@contracts/file-names';

const downloadFailed = () => toast.error('Download failed', { description: 'Failed to download file' });

/** Fetches the file and saves it; a failure shows the catalogue's 'Download failed' / 'Failed to download file'. */
export async function downloadFile(url: string, fileName: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`status ${response.status}`);
    const objectUrl = URL.createObjectURL(await response.blob());
    followLink(objectUrl, fileName);
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
    return true;
  } catch {
    downloadFailed();
    return false;
  }
}

/** Follows a link as a click would: a link the server signed as an attachment is saved and the page stays. */
function followLink(url: string, fileName = ''): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Saves a large file straight from a signed attachment URL (Content-Disposition: attachment): the browser streams it
 * to disk, nothing is held in the page (a zip of a batch may be gigabytes).
 */
export function saveAttachment(url: string): void {
  followLink(url);
}

/**
 * Saves the job's `index`th video (0-based): a fresh attachment link from get-video-url (so an old page never follows
 * an expired one), followed by the browser. A failure shows 'Download failed' / 'Failed to download file'.
 */
export async function downloadVideo(jobId: string, index: number): Promise<boolean> {
  try {
    const { downloadUrls } = await callRoute(getVideoUrlRoute, { body: { jobId } });
    const url = downloadUrls[index];
    if (!url) throw new Error('no such video');
    followLink(url);
    return true;
  } catch {
    downloadFailed();
    return false;
  }
}

/** A History row's video: the job and output it came from (params.job_id, params.output counted from 1). */
export function videoOfGeneration(generation: Pick<Generation, 'result_content_type' | 'params'>): { jobId: string; index: number } | undefined {
  const { job_id: jobId, output } = generation.params;
  if (generation.result_content_type !== 'video/mp4' || typeof jobId !== 'string') return undefined;
  return { jobId, index: typeof output === 'number' ? output - 1 : 0 };
}
