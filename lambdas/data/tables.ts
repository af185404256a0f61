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
 * Sparse index of the work still running or not yet settled: a generation or job carries `in_flight` (its kind) while
 * it is processing/generating and, once it has failed (a job: ended), until its refund is applied; then it is removed.
 * The reconciler finds stuck work by created_at here without reading finished rows.
 */
export const IN_FLIGHT_INDEX = {
  name: 'in_flight',
  partitionKey: { name: 'in_flight', type: 'S' },
  sortKey: { name: 'created_at', type: 'S' },
  keysOnly: true,
} as const satisfies NonNullable<TableDefinition['globalIndexes']>[number];

/**
 * Sparse index of the accounts being deleted: a profile carries `deleting` from the delete request until the
 * workflow's last step replaces it with its bare tombstone. The reconciler resumes a deletion whose execution died.
 */
export const ACCOUNT_DELETING_INDEX = {
  name: 'deleting',
  partitionKey: { name: 'deleting', type: 'S' },
  sortKey: { name: 'deletion_requested_at', type: 'S' },
  keysOnly: true,
} as const satisfies NonNullable<TableDefinition['globalIndexes']>[number];
/** The value of `deleting` (the index's one partition). */
export const ACCOUNT_DELETING = 'account';

export const TABLES = {
  profiles: { partitionKey: { name: 'id', type: 'S' }, globalIndexes: [ACCOUNT_DELETING_INDEX], stream: true },
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
  /**
   * Per-user limits: request counters, one item per user, limit and time window (expired windows are removed by TTL),
   * and the running-work places, one item per user and kind of work (`running#<user>#<kind>`, limits-repo).
   */
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
    // A batch whose execution died (a killed twin) before its summary is found by the reconciler here.
    globalIndexes: [IN_FLIGHT_INDEX],
    stream: true,
  },
  /**
   * API keys of the public API: one item per key (`key_…`, only the peppered SHA-256 of the secret is kept) and one
   * `#active` counter per user that bounds the active keys in the same transaction as a create or a revoke.
   * The authorizer finds a key by its hash through by_hash.
   */
  apiKeys: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
    globalIndexes: [{ name: 'by_hash', partitionKey: { name: 'key_hash', type: 'S' } }],
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
  /** Support tickets, in the owner's partition (`tkt_<time>_…`, newest last): subject, message, reply address, status. */
  tickets: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
  },
  /**
   * Saved models (personas), in the owner's partition: one item per model (`mdl_…`) and one `#count` counter per user
   * that bounds the saved models in the same transaction as a create or a delete.
   */
  models: {
    partitionKey: { name: 'user_id', type: 'S' },
    sortKey: { name: 'id', type: 'S' },
  },
  /**
   * Shopify shops, one item per shop domain: the connection (owner `user_id`, status, scopes, the offline token and its
   * refresh token encrypted), so a shop is connected to one account at a time and Shopify's webhooks, which name only
   * the shop, find it with one GetItem. Also the OAuth installs under way (`oauth#<state>`: who asked, for which shop;
   * ten minutes) and the compliance requests received (`compliance#<webhook id>`; kept 30 days). A user's items are
   * found through by_user.
   */
  shops: {
    partitionKey: { name: 'id', type: 'S' },
    globalIndexes: [{ name: 'by_user', partitionKey: { name: 'user_id', type: 'S' }, keysOnly: true }],
    ttlAttribute: 'expires_at',
  },
  /**
   * Publications to Shopify, in the owner's partition: `pub_<id>` (the files, each to its product, with its progress;
   * streamed to the live channel and the webhook emitter) and `match#<shop>#<clothing item>` (the product a library
   * item was last published to). Ids derive from the request, so newest-first reads go through by_created.
   */
  publications: {
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
  /** Logical name 'clothing-images' (the product's own): one folder per user id. */
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
/** Days after which an upload still tagged pending (never registered or used) is removed. */
export const ABANDONED_UPLOAD_DAYS = 1;

/**
 * What deleting an account does to a user's items in each table. Every table is named, so a table added later must
 * say what happens to its items (the type fails otherwise), and the deletion workflow walks this list:
 * - `partition`: every item whose partition key is the user id is deleted;
 * - `key`: the one item keyed by the user id is replaced by a bare tombstone `{ id, deleted_at }`, so an ID token that
 *   is still valid after the deletion (up to an hour) can't bring the account back with new sign-up credits;
 * - `index`: the items an index finds by the user id (`attribute`) are deleted;
 * - `anonymise`: kept for accounting, moved to the account's tombstone id (the ledger, which the confirm dialog says);
 * - `keep`: nothing of the user's is left there after the others have run, or it expires by itself (the reason says).
 */
export type AccountDeletionRule =
  | { action: 'partition' }
  | { action: 'key' }
  | { action: 'index'; index: string; attribute: string }
  | { action: 'anonymise' }
  | { action: 'keep'; reason: string };

export const ACCOUNT_DELETION = {
  profiles: { action: 'key' },
  ledger: { action: 'anonymise' },
  pricingTiers: { action: 'keep', reason: 'the price list: nobody\'s data' },
  clothingItems: { action: 'partition' },
  generations: { action: 'partition' },
  jobs: { action: 'partition' },
  limits: { action: 'keep', reason: 'request counters expire with their time window (TTL); running-work places name only record ids and are given back as the work ends' },
  connections: { action: 'index', index: 'by_user', attribute: 'user_id' },
  payments: { action: 'keep', reason: 'payment records of the ledger\'s purchases are moved to the tombstone id with the ledger; daily test-payment counters expire (TTL)' },
  imports: { action: 'partition' },
  batches: { action: 'partition' },
  apiKeys: { action: 'partition' },
  webhooks: { action: 'partition' },
  tickets: { action: 'partition' },
  models: { action: 'partition' },
  shops: { action: 'index', index: 'by_user', attribute: 'user_id' },
  publications: { action: 'partition' },
} as const satisfies Record<TableName, AccountDeletionRule>;
