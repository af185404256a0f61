// Configuration read once, at module scope, by name. A missing value fails fast and says which one.
import { bucketEnvName, tableEnvName, type BucketName, type TableName } from '../data/tables.js';

export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (!value) throw new Error(`Missing configuration: environment variable ${name} is not set`);
  return value;
}

/** The physical name of a table, resolved when first used (a function only sees the tables it was granted). */
export const tableName = (table: TableName): string => requireEnv(tableEnvName(table));
export const bucketName = (bucket: BucketName): string => requireEnv(bucketEnvName(bucket));
