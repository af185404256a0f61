// The "Download my data" zip, built by the accountExport workflow's BuildExport task: one zip of every record the
// account has (EXPORT_SOURCES: profile, clothing items, generations, video jobs, batches with their photos, webhook
// endpoints, API keys, imports, saved models, Shopify shops and publications, receipts, support tickets and the credit ledger, as JSON, the ledger also
// as CSV; never a secret), with the files they name (item images, results, videos, portraits) up to
// EXPORT_INLINE_MAX_BYTES; the rest are listed in files.csv with signed links. The zip is written to the caller's
// folder tagged like a pending upload, so the bucket's lifecycle rule removes it after a day.
import type { AccountExportInput } from '../../contracts/account.js';
import type { CreditTransaction } from '../../contracts/api.js';
import { SIGNED_URL_SECONDS } from '../../contracts/catalog.js';
import { endDataExport, EXPORT_PLACE, getDataExport } from '../../data/account-export-repo.js';
import { listUserPartition } from '../../data/account-repo.js';
import { listApiKeys } from '../../data/api-keys-repo.js';
import type { BatchRecord } from '../../data/batches-repo.js';
import { itemFromStored, type ClothingItemRecord, type StoredClothingItem } from '../../data/clothing-repo.js';
import { getProfile, listWholeLedger } from '../../data/credits-repo.js';
import type { GenerationRecord } from '../../data/generations-repo.js';
import type { ImportRecord } from '../../data/imports-repo.js';
import { jobFromStored, type JobItem, type StoredJob } from '../../data/jobs-repo.js';
import { releaseLease } from '../../data/limits-repo.js';
import type { ModelRecord } from '../../data/models-repo.js';
import type { BucketName } from '../../data/tables.js';
import { listEndpoints } from '../../data/webhooks-repo.js';
import { listUserShops } from '../../data/shops-repo.js';
import { openObject, storedSize } from '../../storage/object-transfer.js';
import { presignDownload, signedUrlExpiresAt } from '../../storage/presign.js';
import { textFile, writeZipObject, type ZipFile } from '../../storage/zip-archive.js';
import { listPurchases } from '../payments/receipts.js';

/**
 * Files are copied into the zip up to this many bytes in all: stream to stream inside the region, well within
 * BuildExport's 900 s, and far below the 4 GB a zip without ZIP64 may hold (storage/zip-archive.ts).
 */
export const EXPORT_INLINE_MAX_BYTES = 1024 * 1024 * 1024;
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

/**
 * One JSON file of the export: its name in the zip, what README.txt says it holds, and how it is read. Everything an
 * account has is listed here, in the order README.txt lists it: a new kind of record adds its line to EXPORT_SOURCES
 * (with a reader that leaves out secrets and internal fields), and the zip and README.txt follow.
 */
export interface ExportSource {
  file: string;
  holds: string;
  read: (userId: string) => Promise<unknown>;
}

/** The rows of the generations table without their internal fields (a batch's photos are rows of it too). */
const generationRows = async (userId: string) =>
  (await listUserPartition<GenerationRecord>('generations', userId)).map(({ in_flight: _inFlight, debit_id: _debit, ...row }) => row);

export const EXPORT_SOURCES: ExportSource[] = [
  { file: 'profile.json', holds: 'your account', read: async (userId) => (await getProfile(userId)) ?? null },
  { file: 'clothing-items.json', holds: 'your clothing library', read: async (userId) => (await listUserPartition<StoredClothingItem>('clothingItems', userId)).map(itemFromStored) },
  { file: 'generations.json', holds: 'your images and videos (history), batch photos included', read: generationRows },
  { file: 'video-jobs.json', holds: 'your video jobs', read: async (userId) => (await listUserPartition<StoredJob>('jobs', userId)).map(jobFromStored).map(({ debit_id: _debit, ...job }) => job) },
  {
    file: 'batches.json',
    holds: 'your batches, each with its photos',
    read: async (userId) => {
      const [batches, rows] = await Promise.all([listUserPartition<BatchRecord>('batches', userId), generationRows(userId)]);
      return batches.map(({ in_flight: _inFlight, debit_id: _debit, ...batch }) => ({ ...batch, photos: rows.filter((row) => row.id.startsWith(`${batch.id}-p`)) }));
    },
  },
  {
    file: 'webhook-endpoints.json',
    holds: 'your webhook endpoints (address and events; never their signing secrets)',
    read: async (userId) => (await listEndpoints(userId)).map(({ id, url, events, created_at, disabled_at }) => ({ id, url, events, created_at, disabled_at: disabled_at ?? null })),
  },
  {
    file: 'api-keys.json',
    holds: 'your API keys: names and first and last characters (never the keys)',
    read: async (userId) => (await listApiKeys(userId)).map(({ id, name, prefix, last4, created_at, last_used_at, revoked_at }) => ({ id, name, prefix, last4, created_at, last_used_at: last_used_at ?? null, revoked_at: revoked_at ?? null })),
  },
  {
    file: 'imports.json',
    holds: 'your product-link imports (kept an hour) and the images they found',
    read: async (userId) => (await listUserPartition<ImportRecord>('imports', userId)).map(({ expires_at: _expires, ...record }) => record),
  },
  {
    file: 'models.json',
    holds: 'your saved models (uploaded portraits under models/)',
    // Not the per-user counter item.
    read: async (userId) => (await listUserPartition<ModelRecord>('models', userId)).filter((model) => model.id.startsWith('mdl_')),
  },
  {
    file: 'shopify-shops.json',
    holds: 'the Shopify shops you connected (never their access tokens)',
    read: async (userId) => (await listUserShops(userId)).map(({ id, name, status, scopes, connected_at, ended_at }) => ({ shop: id, name, status, scopes, connected_at, ended_at: ended_at ?? null })),
  },
  {
    file: 'shopify-publications.json',
    holds: 'your publications to Shopify, each file with its product, and the product each library item was last published to',
    read: (userId) => listUserPartition('publications', userId),
  },
  { file: 'receipts.json', holds: 'your purchases with their receipts', read: (userId) => listPurchases(userId) },
  { file: 'support-tickets.json', holds: 'your support requests', read: (userId) => listUserPartition('tickets', userId) },
  { file: 'credit-transactions.json', holds: 'your credits ledger (also as credit-transactions.csv)', read: (userId) => listWholeLedger(userId) },
];

type SourceFile = (typeof EXPORT_SOURCES)[number]['file'];

/** Task BuildExport: the zip written, the export ready (if it is still the account's building one), the place given back. */
export async function buildAccountExport({ userId, exportId }: AccountExportInput): Promise<void> {
  const requested = (await getDataExport(userId)).dataExport;
  const now = requested?.id === exportId ? new Date(requested.requested_at) : new Date();
  const zip = await writeExport(userId, exportId, now);
  await endDataExport(userId, exportId, { status: 'ready', ...zip }, new Date().toISOString());
  await releaseLease(userId, EXPORT_PLACE, exportId);
}

async function writeExport(userId: string, exportId: string, now: Date): Promise<{ key: string; fileName: string; filesIncluded: number; filesLinked: number }> {
  const read = new Map<string, unknown>(await Promise.all(EXPORT_SOURCES.map(async (source) => [source.file, await source.read(userId)] as const)));
  const records = <T>(file: SourceFile) => read.get(file) as T;
  const items = records<ClothingItemRecord[]>('clothing-items.json');
  const generations = records<Omit<GenerationRecord, 'in_flight' | 'debit_id'>[]>('generations.json');
  const jobs = records<Omit<JobItem, 'debit_id'>[]>('video-jobs.json');
  const ledger = records<CreditTransaction[]>('credit-transactions.json');
  const models = records<ModelRecord[]>('models.json');

  const files: AccountFile[] = [
    ...items.map((item) => ({ bucket: 'clothingImages' as const, key: item.image_key, name: `clothing-items/${item.id}-${baseName(item.image_key)}`, contentType: item.mime_type })),
    ...generations
      .filter((row) => row.status === 'complete' && row.result_key)
      .map((row) => ({ bucket: 'results' as const, key: row.result_key!, name: `generations/${row.id}-${baseName(row.result_key!)}`, contentType: row.result_content_type ?? typeOf(row.result_key!) })),
    ...jobs.flatMap((job) =>
      job.outputs.map((output) => ({ bucket: 'results' as const, key: output.video_key, name: `videos/${job.id}-${baseName(output.video_key)}`, contentType: 'video/mp4' })),
    ),
    ...models.flatMap((model) =>
      model.portrait?.source === 'upload'
        ? [{ bucket: model.portrait.bucket, key: model.portrait.key, name: `models/${model.id}-${baseName(model.portrait.key)}`, contentType: model.portrait.mime_type }]
        : [],
    ),
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
        ...EXPORT_SOURCES.map((source) => `${source.file.padEnd(28)}${source.holds}`),
        `${'files.csv'.padEnd(28)}every file, in this zip or as a link valid until ${linksExpireAt}`,
        '',
      ].join('\n'),
    ),
    ...EXPORT_SOURCES.map((source) => textFile(source.file, json(read.get(source.file)))),
    textFile('credit-transactions.csv', ledgerCsv(ledger)),
    textFile('files.csv', csv(['file', 'in_zip', 'link'], [...included.map((file) => [file.name, 'yes', '']), ...linkRows.map(([name, url]) => [name, 'no', url])])),
    ...included.map((file): ZipFile => ({ name: file.name, size: sizes.get(`${file.bucket}/${file.key}`)!, data: () => openObject(file.bucket, file.key) })),
  ];
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const key = `${userId}/exports/modelloop-data-${stamp}-${exportId}.zip`;
  await writeZipObject('results', key, entries, { expiresAfterADay: true });
  return { key, fileName: `modelloop-data-${stamp.slice(0, 8)}.zip`, filesIncluded: included.length, filesLinked: linked.length };
}
