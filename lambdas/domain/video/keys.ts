// Where a video job's files live in the results bucket: all under the owner's folder, one folder per job.
import { IMAGE_EXTENSIONS } from '../../contracts/upload-rules.js';
import type { ImageMimeType } from '../../contracts/api.js';

const jobFolder = (userId: string, jobId: string) => `${userId}/videos/${jobId}`;

export const sourceKey = (userId: string, jobId: string, mimeType: ImageMimeType) =>
  `${jobFolder(userId, jobId)}/source.${IMAGE_EXTENSIONS[mimeType]}`;

/** Where a provider writes clip `clip` of output `output` (Luma Ray2 uses it as a prefix without `.mp4`). */
export const rawClipKey = (userId: string, jobId: string, output: number, clip: number) =>
  `${jobFolder(userId, jobId)}/raw/output-${output + 1}-clip-${clip + 1}.mp4`;

export const videoKey = (userId: string, jobId: string, output: number) => `${jobFolder(userId, jobId)}/video-${output + 1}.mp4`;
export const thumbnailKey = (userId: string, jobId: string, output: number) => `${jobFolder(userId, jobId)}/video-${output + 1}.jpg`;
