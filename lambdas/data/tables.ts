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
  globalIndexes?: { name: string; partitionKey: KeyAttribute; sortKey?: KeyAttribute }[];
  /** New images are streamed to the realtime fan-out. */
  stream?: boolean;
  ttlAttribute?: string;
}

export const TABLES = {
  profiles: { partitionKey: { name: 'id', type: 'S' }, stream: true },
  /** credit_transactions: one item per ledger entry, its id derived from what caused it (idempotency). */
  ledger: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    localIndexes: [{ name: 'by_seq', sortKey: { name: 'seq', type: 'N' } }],
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
    stream: true,
  },
  jobs: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
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
