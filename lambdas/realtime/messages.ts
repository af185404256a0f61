// Which realtime messages a change of a streamed table means, and for whom. Profiles tell the user's new balance (only
// when it changed) and that their latest data export changed (it lives on the profile); the lists say which list
// changed, so the web app reloads just that one.
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { LiveResource, RealtimeMessage } from '../contracts/api.js';
import { TABLES, tableEnvName, type TableName } from '../data/tables.js';

/** The tables whose streams feed the fan-out. */
export type StreamedTable = { [K in TableName]: (typeof TABLES)[K] extends { stream: true } ? K : never }[TableName];

export const STREAMED_TABLES = (Object.keys(TABLES) as TableName[]).filter(
  (name): name is StreamedTable => (TABLES[name] as { stream?: boolean }).stream === true,
);

/** The list each streamed table (other than profiles) is shown in. */
const LIST_OF: Record<Exclude<StreamedTable, 'profiles'>, LiveResource> = {
  clothingItems: 'clothing-items',
  generations: 'generations',
  jobs: 'jobs',
  batches: 'batches',
  publications: 'publications',
};

export interface Notice {
  userId: string;
  message: RealtimeMessage;
}

/** The table a stream record comes from, by its physical name (…:table/<name>/stream/<label>) and the functions env. */
export function streamedTableOf(eventSourceArn: string | undefined, env: NodeJS.ProcessEnv = process.env): StreamedTable | undefined {
  const name = /:table\/([^/]+)\/stream\//.exec(eventSourceArn ?? '')?.[1];
  return name ? STREAMED_TABLES.find((table) => env[tableEnvName(table)] === name) : undefined;
}

/** The messages one change means (none when it means nothing to the web app). */
export function noticesFor(table: StreamedTable, record: DynamoDBRecord): Notice[] {
  const change = record.dynamodb;
  if (!change) return [];
  if (table === 'profiles') {
    const userId = stringOf(change.Keys?.id);
    if (!userId || !change.NewImage) return [];
    const notices: Notice[] = [];
    const credits = numberOf(change.NewImage.current_credits);
    if (credits !== undefined && credits !== numberOf(change.OldImage?.current_credits)) notices.push({ userId, message: { type: 'credits', current_credits: credits } });
    if (exportStateOf(change.NewImage) !== exportStateOf(change.OldImage)) notices.push({ userId, message: { type: 'changed', resource: 'account-export' } });
    return notices;
  }
  const userId = stringOf(change.Keys?.user_id);
  return userId ? [{ userId, message: { type: 'changed', resource: LIST_OF[table] } }] : [];
}

/** The latest data export's id and status, as one string (empty without one). */
function exportStateOf(image: Record<string, AttributeValue> | undefined): string {
  const dataExport = image?.data_export?.M;
  return dataExport ? `${stringOf(dataExport.id)}:${stringOf(dataExport.status)}` : '';
}

export interface UserMessages {
  userId: string;
  /** In the order to send: at most one balance (the newest of the batch), then each changed list once. */
  messages: RealtimeMessage[];
  /** The sequence numbers of the records behind these messages, to report when sending fails. */
  sequenceNumbers: string[];
}

/** Collapses one batch of records into the few messages each user needs: records are in stream order. */
export function messagesByUser(records: readonly { table: StreamedTable; record: DynamoDBRecord }[]): UserMessages[] {
  const byUser = new Map<string, { credits?: RealtimeMessage; lists: Set<LiveResource>; sequenceNumbers: string[] }>();
  for (const { table, record } of records) {
    for (const notice of noticesFor(table, record)) {
      let entry = byUser.get(notice.userId);
      if (!entry) byUser.set(notice.userId, (entry = { lists: new Set(), sequenceNumbers: [] }));
      if (notice.message.type === 'credits') entry.credits = notice.message;
      else entry.lists.add(notice.message.resource);
      const sequenceNumber = record.dynamodb?.SequenceNumber;
      if (sequenceNumber && !entry.sequenceNumbers.includes(sequenceNumber)) entry.sequenceNumbers.push(sequenceNumber);
    }
  }
  return [...byUser].map(([userId, { credits, lists, sequenceNumbers }]) => ({
    userId,
    messages: [
      ...(credits ? [credits] : []),
      ...[...lists].map((resource): RealtimeMessage => ({ type: 'changed', resource })),
    ],
    sequenceNumbers,
  }));
}

function stringOf(value: AttributeValue | undefined): string | undefined {
  return value?.S;
}

function numberOf(value: AttributeValue | undefined): number | undefined {
  return value?.N === undefined ? undefined : Number(value.N);
}
