// The latest "Download my data" export of an account, kept on its profile (`data_export`): one export runs at a time
// (the lease in the limits table), and the profiles' stream carries each change of it to the owner's live connections
// (the `account-export` list), as it carries the balance. Written by the route (building) and the accountExport
// workflow (ready or failed, only for the export it is building).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountExportStatus } from '../contracts/account.js';
import { dynamo } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';
import { tableName } from './tables.js';

/** The account's one running place of "Download my data" in the limits table (USER_LIMITS.rates.exports). */
export const EXPORT_PLACE = 'exports';

export interface DataExportRecord {
  id: string;
  status: AccountExportStatus;
  requested_at: string;
  ended_at?: string;
  /** Ready: the zip in the results bucket, the name it saves as, and what it holds. */
  key?: string;
  file_name?: string;
  files_included?: number;
  files_linked?: number;
}

/** The profile's e-mail and its latest export. */
export async function getDataExport(userId: string): Promise<{ email?: string; dataExport?: DataExportRecord }> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName('profiles'), Key: { id: userId }, ConsistentRead: true, ProjectionExpression: 'email, data_export' }),
  );
  return { email: Item?.email as string | undefined, dataExport: Item?.data_export as DataExportRecord | undefined };
}

/** Records a new export as building on an existing profile (false: there is no profile). */
export async function startDataExport(userId: string, exportId: string, now: string): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('profiles'),
        Key: { id: userId },
        UpdateExpression: 'SET data_export = :export',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':export': { id: exportId, status: 'building', requested_at: now } satisfies DataExportRecord },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/**
 * Ends the export `exportId` ready (with its zip) or failed, if it is still the account's building one; answers
 * whether it was.
 */
export async function endDataExport(
  userId: string,
  exportId: string,
  outcome: { status: 'ready'; key: string; fileName: string; filesIncluded: number; filesLinked: number } | { status: 'failed' },
  now: string,
): Promise<boolean> {
  const ready = outcome.status === 'ready';
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('profiles'),
        Key: { id: userId },
        UpdateExpression: `SET data_export.#status = :status, data_export.ended_at = :now${ready ? ', data_export.#key = :key, data_export.file_name = :name, data_export.files_included = :included, data_export.files_linked = :linked' : ''}`,
        ConditionExpression: 'data_export.id = :id AND data_export.#status = :building',
        ExpressionAttributeNames: { '#status': 'status', ...(ready ? { '#key': 'key' } : {}) },
        ExpressionAttributeValues: {
          ':id': exportId,
          ':building': 'building',
          ':status': outcome.status,
          ':now': now,
          ...(ready ? { ':key': outcome.key, ':name': outcome.fileName, ':included': outcome.filesIncluded, ':linked': outcome.filesLinked } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
