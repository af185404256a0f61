// "Download my data": one zip of the account's profile, clothing items, generations, video jobs and credit ledger
// (JSON, and the ledger also as CSV), with the files they name (item images, results, videos) while the zip stays
// small enough to build within the request; the rest are listed in files.csv with signed links. The zip is written
// to the caller's folder tagged like a pending upload, so the bucket's lifecycle rule removes it after a day.
import type { AccountExport } from '../../contracts/account.js';
import type { CreditTransaction } from '../../contracts/api.js';
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { listUserPartition } from '../../data/account-repo.js';
import { itemFromStored, type StoredClothingItem } from '../../data/clothing-repo.js';
import { getProfile, listWholeLedger } from '../../data/credits-repo.js';
import type { GenerationRecord } from '../../data/generations-repo.js';
import { jobFromStored, type StoredJob } from '../../data/jobs-repo.js';
import type { ModelRecord } from '../../data/models-repo.js';
import type { BucketName } from '../../data/tables.js';
import { openObject, storedSize } from '../../storage/object-transfer.js';
import { presignAttachment, presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { textFile, writeZipObject, ZIP_TYPE, type ZipFile } from '../../storage/zip-archive.js';

/** Files are copied into the zip up to this many bytes in all (a zip the request can build in its time). */
export const EXPORT_INLINE_MAX_BYTES = 50 * 1024 * 1024;
/** Stored sizes read at once, before the zip is written. */
const SIZE_READS_AT_ONCE = 8;

interface AccountFile {
  bucket: BucketName;
  key: string;
  /** The path inside the zip. */
  name: string;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', mp4: 'video/mp4' };
const typeOf = (key: string) => CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
const baseName = (key: string) => key.split('/').pop() ?? key;
const csvField = (value: unknown) => {
  const text = value === undefined || value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csv = (header: string[], rows: unknown[][]) => `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function ledgerCsv(entries: CreditTransaction[]): string {
  return csv(
    ['created_at', 'id', 'transaction_type', 'amount', 'balance_after', 'description'],
    entries.map((entry) => [entry.created_at, entry.id, entry.transaction_type, entry.amount, entry.balance_after, entry.description]),
  );
}

/** POST /account/export. */
export async function exportAccountData(userId: string, now = new Date()): Promise<AccountExport> {
  const [profile, storedItems, generations, storedJobs, ledger] = await Promise.all([
    getProfile(userId),
    listUserPartition<StoredClothingItem>('clothingItems', userId),
    listUserPartition<GenerationRecord>('generations', userId),
    listUserPartition<StoredJob>('jobs', userId),
    listWholeLedger(userId),
  ]);
  const items = storedItems.map(itemFromStored);
  const jobs = storedJobs.map(jobFromStored);
  // Saved models (not the per-user counter item), with the portraits the seller uploaded.
  const models = (await listUserPartition<ModelRecord>('models', userId)).filter((model) => model.id.startsWith('mdl_'));
  const modelPortraits = models.flatMap((model) =>
    model.portrait?.source === 'upload'
      ? [{ bucket: model.portrait.bucket, key: model.portrait.key, name: `models/${model.id}-${baseName(model.portrait.key)}`, contentType: model.portrait.mime_type }]
      : [],
  );

  const files: AccountFile[] = [
    ...items.map((item) => ({ bucket: 'clothingImages' as const, key: item.image_key, name: `clothing-items/${item.id}-${baseName(item.image_key)}`, contentType: item.mime_type })),
    ...generations
      .filter((row) => row.status === 'complete' && row.result_key)
      .map((row) => ({ bucket: 'results' as const, key: row.result_key!, name: `generations/${row.id}-${baseName(row.result_key!)}`, contentType: row.result_content_type ?? typeOf(row.result_key!) })),
    ...jobs.flatMap((job) =>
      job.outputs.map((output) => ({ bucket: 'results' as const, key: output.video_key, name: `videos/${job.id}-${baseName(output.video_key)}`, contentType: 'video/mp4' })),
    ),
    ...modelPortraits,
  ];
  // Sizes read a few at a time (HEAD by presigned URL: this function carries no S3 client); a file no longer stored
  // is left out.
  const sizes = new Map<string, number>();
  for (let at = 0; at < files.length; at += SIZE_READS_AT_ONCE) {
    const batch = files.slice(at, at + SIZE_READS_AT_ONCE);
    const found = await Promise.all(batch.map((file) => storedSize(file.bucket, file.key)));
    batch.forEach((file, index) => found[index] !== undefined && sizes.set(`${file.bucket}/${file.key}`, found[index]!));
  }
  const stored = files.filter((file) => sizes.has(`${file.bucket}/${file.key}`));
  let budget = EXPORT_INLINE_MAX_BYTES;
  const included: AccountFile[] = [];
  const linked: AccountFile[] = [];
  for (const file of stored) {
    const size = sizes.get(`${file.bucket}/${file.key}`)!;
    if (size <= budget) {
      included.push(file);
      budget -= size;
    } else linked.push(file);
  }
  const linkRows = await Promise.all(linked.map(async (file) => [file.name, await presignDownload(file.bucket, file.key, file.contentType, SIGNED_URL_SECONDS)]));
  const linksExpireAt = await signedUrlExpiresAt(SIGNED_URL_SECONDS);

  const entries: ZipFile[] = [
    textFile(
      'README.txt',
      [
        `ModelLoop data export, ${now.toISOString()}`,
        '',
        'profile.json            your account',
        'clothing-items.json     your clothing library',
        'generations.json        your images and videos (history)',
        'video-jobs.json         your video jobs',
        'credit-transactions.*   your credits ledger (JSON and CSV)',
        'models.json             your saved models (and their uploaded portraits under models/)',
        `files.csv               every file, in this zip or as a link valid until ${linksExpireAt}`,
        '',
      ].join('\n'),
    ),
    textFile('profile.json', json(profile ?? null)),
    textFile('clothing-items.json', json(items)),
    textFile('generations.json', json(generations.map(({ in_flight: _inFlight, debit_id: _debit, ...row }) => row))),
    textFile('video-jobs.json', json(jobs.map(({ debit_id: _debit, ...job }) => job))),
    textFile('credit-transactions.json', json(ledger)),
    textFile('models.json', json(models)),
    textFile('credit-transactions.csv', ledgerCsv(ledger)),
    textFile('files.csv', csv(['file', 'in_zip', 'link'], [...included.map((file) => [file.name, 'yes', '']), ...linkRows.map(([name, url]) => [name, 'no', url])])),
    ...included.map((file): ZipFile => ({ name: file.name, size: sizes.get(`${file.bucket}/${file.key}`)!, data: () => openObject(file.bucket, file.key) })),
  ];
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const key = `${userId}/exports/modelloop-data-${stamp}.zip`;
  await writeZipObject('results', key, entries, { expiresAfterADay: true });
  const fileName = `modelloop-data-${stamp.slice(0, 8)}.zip`;
  return {
    url: await presignAttachment('results', key, ZIP_TYPE, fileName, SIGNED_URL_SECONDS),
    expiresAt: await signedUrlExpiresAt(SIGNED_URL_SECONDS),
    fileName,
    filesIncluded: included.length,
    filesLinked: linked.length,
  };
}
