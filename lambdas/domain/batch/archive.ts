// "Download all": one zip of every finished photo of a batch with a manifest.csv (entry, item, angle, status, file),
// built once by workflow work (the batchArchive workflow: a zip of 120 4K photos outlasts any request) and streamed
// into the results bucket (photos are copied stream to stream, never held in memory), then answered as a signed URL
// that saves as a file. The route only starts the job and answers its state; the batch record carries it, so the
// browser hears "ready" through the batches list's live change (or its poll while the socket is down). Pictures and
// the manifest are stored, not deflated (PNG and JPEG are compressed already), so each file in the zip is the stored
// result byte for byte (its XMP provenance kept): a packshot is its marketplace's listing-ready JPEG. A batch still
// being made has no zip yet.
import type { BatchDownload } from '../../contracts/batch.js';
import type { BatchArchiveInput } from '../../contracts/workflows.js';
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { generationFileName, uniqueFileNames } from '../../contracts/file-names.js';
import { GenerationId } from '../../contracts/generations.js';
import { conflict, notFound } from '../../core/errors.js';
import { executionArn, executionStatus, startExecution } from '../../core/sfn.js';
import * as batches from '../../data/batches-repo.js';
import type { GenerationRecord } from '../../data/generations-repo.js';
import { openObject, storedSize } from '../../storage/object-transfer.js';
import { presignAttachment, signedUrlExpiresAt } from '../../storage/presign.js';
import { textFile, writeZipObject, ZIP_TYPE, type ZipFile } from '../../storage/zip-archive.js';

export const archiveKey = (userId: string, batchId: string) => `${userId}/batches/${batchId}.zip`;

/** The file names of a batch's finished photos inside its zip, in order: each as it downloads alone, made unique. */
export function photoFileNames(finished: readonly GenerationRecord[]): Map<string, string> {
  const names = uniqueFileNames(finished.map((row) => generationFileName({ ...row, width: row.width ?? null, height: row.height ?? null, result_content_type: row.result_content_type ?? null })));
  return new Map(finished.map((row, index) => [row.id, names[index]!]));
}

const csvField = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function manifestCsv(rows: GenerationRecord[], fileNames: ReadonlyMap<string, string>): string {
  const lines = [['entry', 'item', 'angle', 'backdrop', 'status', 'file', 'error'].join(',')];
  for (const row of rows) {
    const complete = row.status === 'complete' && row.result_key;
    lines.push(
      [
        String(Number(row.params.entryIndex) + 1),
        String(row.params.clothingItemName),
        String(row.params.cameraAngle),
        String(row.params.backdrop),
        row.status,
        complete ? (fileNames.get(row.id) ?? '') : '',
        row.status === 'failed' ? (row.error_message ?? '') : '',
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export const BATCH_ARCHIVE_WORKFLOW = 'batchArchive';
/** One execution per zip job: a request that finds it building starts the same one again (a no-op while it runs). */
export const archiveExecutionName = (batchId: string, attempt: number) => `${batchId}-zip-${attempt}`;

/**
 * POST /batches/{id}/download: the zip once built (a signed URL), else its job, started now unless one is building.
 * A job whose execution ended without ending its status (a crash, a timeout) is replaced by a new one.
 */
export async function batchDownload(userId: string, batchId: string): Promise<BatchDownload> {
  const batch = GenerationId.safeParse(batchId).success ? await batches.getBatch(userId, batchId) : undefined;
  if (!batch) throw notFound('This batch was not found.');
  if (batch.status !== 'complete') throw conflict('BATCH_RUNNING', 'The batch is still running: its photos can be downloaded once it has finished.');
  const photoCount = batch.summary?.successfulGenerations ?? 0;
  if (photoCount === 0) throw conflict('NOTHING_TO_DOWNLOAD', 'No photo of this batch was made, so there is nothing to download.');
  const fileName = `batch-${batchId.slice(0, 8)}.zip`;
  const building: BatchDownload = { status: 'building', url: null, expiresAt: null, fileName, photoCount };

  if (batches.archiveStatusOf(batch) === 'ready' && batch.archive_key && (await storedSize('results', batch.archive_key)) !== undefined) {
    const expiresAt = await signedUrlExpiresAt(SIGNED_URL_SECONDS);
    return { status: 'ready', url: await presignAttachment('results', batch.archive_key, ZIP_TYPE, fileName, SIGNED_URL_SECONDS), expiresAt, fileName, photoCount };
  }
  if (batch.archive_status === 'building' && batch.archive_attempt) {
    const attempt = batch.archive_attempt;
    const status = await executionStatus(executionArn(BATCH_ARCHIVE_WORKFLOW, archiveExecutionName(batchId, attempt)));
    if (status === 'RUNNING') return building;
    // Never started (the request that set it stopped short) or ended without a word: this request runs it again.
    const replacement = status === undefined ? attempt : await batches.startArchive(userId, batchId, attempt);
    if (replacement !== undefined) await startArchiveJob(userId, batchId, replacement);
    return building;
  }
  const attempt = await batches.startArchive(userId, batchId);
  if (attempt !== undefined) await startArchiveJob(userId, batchId, attempt);
  return building;
}

function startArchiveJob(userId: string, batchId: string, attempt: number) {
  const input: BatchArchiveInput = { userId, batchId, attempt };
  return startExecution(BATCH_ARCHIVE_WORKFLOW, archiveExecutionName(batchId, attempt), input);
}

/** Task BuildArchive: the zip streamed into the results bucket, then the job ready (if it is still the current one). */
export async function buildBatchArchive({ userId, batchId, attempt }: BatchArchiveInput): Promise<{ status: 'ready' | 'replaced' }> {
  const rows = await batches.listBatchPhotos(userId, batchId);
  const finished = rows.filter((row) => row.status === 'complete' && row.result_key);
  const key = archiveKey(userId, batchId);
  await buildArchive(key, rows, finished);
  return { status: (await batches.endArchive(userId, batchId, attempt, { key })) ? 'ready' : 'replaced' };
}

/** Task ArchiveFailed (the Catch of BuildArchive): the job failed; asking again starts another. */
export async function failBatchArchive({ userId, batchId, attempt }: BatchArchiveInput): Promise<void> {
  await batches.endArchive(userId, batchId, attempt, 'failed');
}
/** Photos whose size is read at once, before the zip is written. */
const SIZE_READS_AT_ONCE = 8;

async function buildArchive(key: string, rows: GenerationRecord[], finished: GenerationRecord[]): Promise<void> {
  const sizes: number[] = [];
  for (let at = 0; at < finished.length; at += SIZE_READS_AT_ONCE) {
    for (const size of await Promise.all(finished.slice(at, at + SIZE_READS_AT_ONCE).map((row) => storedSize('results', row.result_key!)))) {
      if (size === undefined) throw new Error('A finished photo of the batch has no stored picture');
      sizes.push(size);
    }
  }
  const fileNames = photoFileNames(finished);
  const files: ZipFile[] = [
    textFile('manifest.csv', manifestCsv(rows, fileNames)),
    // One photo at a time: each is copied stream to stream before the next one is opened.
    ...finished.map((row, index): ZipFile => ({ name: fileNames.get(row.id)!, size: sizes[index]!, data: () => openObject('results', row.result_key!) })),
  ];
  await writeZipObject('results', key, files);
}
