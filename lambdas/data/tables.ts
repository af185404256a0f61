// The one set of table definitions: CDK creates them in the cloud, the local twin in DynamoDB Local.
// Per-user data is partitioned by user id, so every read of a user's data is a Query on that user's partition.
import { envNamePart, requireEnv } from '../core/config.js';

export type KeyType = 'S' | 'N';
export interface KeyAttribute {
  name: string;
  type: KeyType;
}
export interface TableDefinition {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** Local secondary indexes share the partition key; reads on them can be strongly consistent. */
  localIndexes?: { name: string; sortKey: KeyAttribute }[];
  /** `keysOnly`: the index holds only its keys and the table's (enough to find the items, cheap to keep). */
  globalIndexes?: { name: string; partitionKey: KeyAttribute; sortKey?: KeyAttribute; keysOnly?: boolean }[];
  /** New images are streamed to the realtime fan-out. */
  stream?: boolean;
  ttlAttribute?: string;
}

/**
 * Sparse index of the work still running: a generation or job carries `in_flight` (its kind) only while it is
 * processing/generating, and every transition out of that state removes it. The reconciler finds stuck work by
 * created_at here without reading finished rows.
 */
export const IN_FLIGHT_INDEX = {
  name: 'in_flight',
  partitionKey: { name: 'in_flight', type: 'S' },
  sortKey: { name: 'created_at', type: 'S' },
  keysOnly: true,
} as const satisfies NonNullable<TableDefinition['globalIndexes']>[number];

export const TABLES = {
  profiles: { partitionKey: { name: 'id', type: 'S' }, stream: true },
  /** credit_transactions: one item per ledger entry, its id derived from what caused it (idempotency). */
  ledger: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    localIndexes: [{ name: 'by_seq', sortKey: { name: 'seq', type: 'N' } }],
    /** Entries by type and time: which users' ledgers moved in a time window (the reconciler's audit). */
    globalIndexes: [{ name: 'by_type_time', partitionKey: { name: 'transaction_type', type: 'S' }, sortKey: { name: 'created_at', type: 'S' }, keysOnly: true }],
  },
  pricingTiers: { partitionKey: { name: 'id', type: 'S' } },
  clothingItems: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    stream: true,
  },
  /**
   * generations_history. Ids are derived from the request's idempotency key (generations-repo), so they don't sort by
   * time: newest-first reads go through by_created.
   */
  generations: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    localIndexes: [{ name: 'by_created', sortKey: { name: 'created_at', type: 'S' } }],
    globalIndexes: [IN_FLIGHT_INDEX],
    stream: true,
  },
  jobs: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    globalIndexes: [IN_FLIGHT_INDEX],
    stream: true,
  },
  /** Per-user request counters, one item per user, limit and time window; expired windows are removed by TTL. */
  limits: {
    partitionKey: { name: 'id', type: 'S' },
    ttlAttribute: 'expires_at',
  },
  connections: {
    partitionKey: { name: 'connection_id', type: 'S' },
    globalIndexes: [{ name: 'by_user', partitionKey: { name: 'user_id', type: 'S' } }],
    ttlAttribute: 'expires_at',
  },
  /**
   * Payment bookkeeping beside the ledger, one item per id: `pi#<payment intent>` (the user and Checkout Session of a
   * card payment, for refunds Stripe reports), `event#<Stripe event id>` (an event acknowledged without granting, and
   * why), `refund#<session id>` (a refund asked of Stripe), `test-grants#<user>#<day>` (the daily cap of test
   * payments; expires).
   */
  payments: { partitionKey: { name: 'id', type: 'S' }, ttlAttribute: 'expires_at' },
  /** Product-link imports: the candidates a page offered, the only images the caller may then select; an hour. */
  imports: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    ttlAttribute: 'expires_at',
  },
  /**
   * Batches (one per generate-batch request): the entries, the photo ids, the debit that paid for them and, once every
   * photo has ended, the summary. Ids are derived from the request, so newest-first reads go through by_created.
   */
  batches: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    localIndexes: [{ name: 'by_created', sortKey: { name: 'created_at', type: 'S' } }],
    stream: true,
  },
  /**
   * Outgoing webhooks, in the owner's partition: endpoints (`we_…`: url, events, signing secret, disabled_at) and
   * delivery attempts (`att#<time>#…`, newest last, expired by TTL after a week; the screen shows the newest 20).
   */
  webhooks: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    ttlAttribute: 'expires_at',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableName = keyof typeof TABLES;

/** The environment variable that carries a table's physical name to a function. */
export function tableEnvName(table: TableName): string {
  return `TABLE_${envNamePart(table)}`;
}

/** The physical name of a table, resolved when first used (a function only sees the tables it was granted). */
export const tableName = (table: TableName): string => requireEnv(tableEnvName(table));

export const BUCKETS = {
  /** Logical name from the specification: one folder per user id. */
  clothingImages: { logicalName: 'clothing-images' },
  results: { logicalName: 'results' },
} as const;
export type BucketName = keyof typeof BUCKETS;

export function bucketEnvName(bucket: BucketName): string {
  return `BUCKET_${envNamePart(bucket)}`;
}

export const bucketName = (bucket: BucketName): string => requireEnv(bucketEnvName(bucket));

/**
 * Uploads are stored tagged `upload=pending`; a bucket lifecycle rule removes pending objects after a day. Once the
 * server has checked an upload and a route has taken it (a clothing item, a generation's or a video's source), the
 * tag becomes `upload=kept`. Only the tag changes, so every key keeps its shape.
 */
export const UPLOAD_TAG = { key: 'upload', pending: 'pending', kept: 'kept' } as const;
