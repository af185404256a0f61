// The fan-out: a batch of stream records becomes a few messages per user, posted to that user's connections only.
// A connection that answers 410 Gone is forgotten; any other failure reports the user's records as batch item
// failures, so the event source retries them (bisecting, then the dead-letter queue). Messages are idempotent
// (a balance, a "reload this list"), so a retry that reaches a connection twice is harmless.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { RealtimeMessage } from '../contracts/api.js';
import { log } from '../core/log.js';
import type { LiveConnection } from '../data/connections-repo.js';
import { messagesByUser, streamedTableOf, type StreamedTable, type UserMessages } from './messages.js';

/** The environment variable with the management API endpoint of the WebSocket stage (its https callback URL). */
export const CALLBACK_URL_ENV = 'WEBSOCKET_CALLBACK_URL';

/**
 * API Gateway answers 410 to a post that arrives while the connection is still in its $connect (its item is already
 * saved); such a young connection is not forgotten, only an older one is.
 */
export const CONNECTING_GRACE_MS = 10_000;

export interface FanOutPorts {
  connectionsOf(userId: string): Promise<LiveConnection[]>;
  /** Resolves 'gone' when the connection no longer exists (410). */
  post(connectionId: string, message: RealtimeMessage): Promise<'sent' | 'gone'>;
  forget(connectionId: string): Promise<void>;
}

export async function fanOut(event: DynamoDBStreamEvent, ports: FanOutPorts): Promise<DynamoDBBatchResponse> {
  const records: { table: StreamedTable; record: DynamoDBRecord }[] = [];
  for (const record of event.Records) {
    const table = streamedTableOf(record.eventSourceARN);
    if (table) records.push({ table, record });
    else log.warn('stream record from an unknown table skipped', { eventSourceARN: record.eventSourceARN });
  }
  const users = messagesByUser(records);
  const outcomes = await Promise.all(users.map((user) => deliver(user, ports)));
  const failed = users.filter((_, index) => outcomes[index] === 'failed').flatMap((user) => user.sequenceNumbers);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}

async function deliver(user: UserMessages, ports: FanOutPorts): Promise<'delivered' | 'failed'> {
  try {
    const connections = await ports.connectionsOf(user.userId);
    const results = await Promise.allSettled(connections.map((connection) => sendAll(connection, user, ports)));
    const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    for (const failure of failures) log.error('realtime post failed', { userId: user.userId, error: failure.reason });
    return failures.length ? 'failed' : 'delivered';
  } catch (error) {
    log.error('realtime fan-out failed', { userId: user.userId, error });
    return 'failed';
  }
}

async function sendAll({ connectionId, connectedAt }: LiveConnection, user: UserMessages, ports: FanOutPorts): Promise<void> {
  for (const message of user.messages) {
    if ((await ports.post(connectionId, message)) === 'gone') {
      if (Date.now() - connectedAt.getTime() < CONNECTING_GRACE_MS) return;
      await ports.forget(connectionId);
      log.info('stale websocket connection removed', { connectionId, userId: user.userId });
      return;
    }
  }
}
