// The DynamoDB streams → Lambda event source mapping of the local twin: reads every shard of each streamed table
// from the twin's start (as LATEST does), builds the DynamoDBStreamEvent Lambda would, and calls the same handler. As
// in the cloud, records of one shard are delivered in order, one batch at a time; batch item failures are retried
// from the first failed record, and a batch that still fails is logged where the cloud would send it to the DLQ.
//
// DynamoDB Local numbers stream records across all tables, and an iterator of a shard that was empty when it was
// taken (LATEST or TRIM_HORIZON alike) fails with TrimmedDataAccessException once another table has been written.
// So a shard is read from TRIM_HORIZON with what it already holds skipped, and after that error the reading
// resumes right after the last record seen (or from the shard's start, when it had none: all of it is new).
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type AttributeValue as SdkAttributeValue,
  type _Record as SdkRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export interface StreamPollerOptions {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Physical names of the tables whose streams to read. */
  tables: string[];
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Pause after an empty read of a shard. */
  idleMs?: number;
  /** Records per invocation, as the event source mapping's batch size. */
  batchSize?: number;
  /** Retries of a failing batch before it is given up (the cloud's retryAttempts). */
  retryAttempts?: number;
  log: (line: string) => void;
}

export interface StreamPoller {
  stop(): Promise<void>;
}

const DEFAULT_IDLE_MS = 100;
const DEFAULT_BATCH_SIZE = 100;
const DEFAULT_RETRY_ATTEMPTS = 3;
const RETRY_BASE_MS = 100;
/** GetRecords' maximum page, for skipping what a shard held before the twin started. */
const SKIP_PAGE_SIZE = 1000;

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const retryAttempts = options.retryAttempts ?? DEFAULT_RETRY_ATTEMPTS;
  const clientConfig = { endpoint: options.endpoint, region: options.region, credentials: options.credentials };
  const dynamodb = new DynamoDBClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);
  const stopping = new AbortController();
  const loops = new Set<Promise<void>>();
  const knownShards = new Set<string>();

  const pause = (ms: number) =>
    new Promise<void>((done) => {
      const finish = () => {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', finish);
        done();
      };
      const timer = setTimeout(finish, ms);
      stopping.signal.addEventListener('abort', finish, { once: true });
    });

  async function shardsOf(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId }));
      shards.push(...(StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    return shards;
  }

  /** Starts reading the shards not read yet: open ones from now at start, shards that appear later from their start. */
  async function follow(streamArn: string, from: 'now' | 'start'): Promise<void> {
    for (const shard of await shardsOf(streamArn)) {
      const shardId = shard.ShardId;
      if (!shardId || knownShards.has(shardId)) continue;
      knownShards.add(shardId);
      if (from === 'now' && shard.SequenceNumberRange?.EndingSequenceNumber) continue; // closed before we came
      const reader = await shardReader(streamArn, shardId);
      if (from === 'now') await reader.skipExisting();
      const loop = reader.run().catch((error: unknown) => {
        if (!stopping.signal.aborted) options.log(`stream poller stopped reading ${shardId}: ${errorText(error)}`);
      });
      loops.add(loop);
      void loop.finally(() => loops.delete(loop));
    }
  }

  async function shardReader(streamArn: string, shardId: string) {
    let lastSequenceNumber: string | undefined;
    const iteratorAfterLastSeen = async () =>
      (
        await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ...(lastSequenceNumber
              ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: lastSequenceNumber }
              : { ShardIteratorType: 'TRIM_HORIZON' }),
          }),
        )
      ).ShardIterator;
    let iterator = await iteratorAfterLastSeen();

    /** One page of the shard; undefined when the shard is closed and read to its end. */
    async function read(limit: number): Promise<SdkRecord[] | undefined> {
      if (!iterator) return undefined;
      let page: GetRecordsCommandOutput;
      try {
        page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }));
      } catch (error) {
        if ((error as Error).name !== 'TrimmedDataAccessException' && (error as Error).name !== 'ExpiredIteratorException') throw error;
        iterator = await iteratorAfterLastSeen();
        return [];
      }
      const records = page.Records ?? [];
      lastSequenceNumber = records.at(-1)?.dynamodb?.SequenceNumber ?? lastSequenceNumber;
      iterator = page.NextShardIterator;
      return records;
    }

    return {
      async skipExisting() {
        for (let records = await read(SKIP_PAGE_SIZE); records?.length; records = await read(SKIP_PAGE_SIZE));
      },
      async run() {
        while (!stopping.signal.aborted) {
          const records = await read(batchSize);
          if (!records) break;
          if (records.length) await deliver(records.map((record) => toLambdaRecord(record, streamArn)));
          else await pause(idleMs);
        }
        // A closed shard hands over to its children.
        if (!stopping.signal.aborted) await follow(streamArn, 'start');
      },
    };
  }

  async function deliver(records: DynamoDBRecord[]): Promise<void> {
    let batch = records;
    for (let attempt = 0; ; attempt++) {
      let failedFrom: number;
      try {
        const failures = (await options.handler({ Records: batch }))?.batchItemFailures ?? [];
        const failed = new Set(failures.map((failure) => failure.itemIdentifier));
        failedFrom = batch.findIndex((record) => failed.has(record.dynamodb?.SequenceNumber ?? ''));
      } catch (error) {
        options.log(`stream handler error: ${errorText(error)}`);
        failedFrom = 0;
      }
      if (failedFrom < 0) return;
      batch = batch.slice(failedFrom);
      if (attempt >= retryAttempts) {
        options.log(`stream records given up after ${retryAttempts} retries (the cloud sends them to the dead-letter queue): ${batch.length}`);
        return;
      }
      await pause(RETRY_BASE_MS * 2 ** attempt);
      if (stopping.signal.aborted) return;
    }
  }

  for (const table of options.tables) {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
    if (!Table?.LatestStreamArn) throw new Error(`Table ${table} has no stream`);
    await follow(Table.LatestStreamArn, 'now');
  }

  return {
    async stop() {
      stopping.abort();
      while (loops.size) await Promise.all([...loops]);
      dynamodb.destroy();
      streams.destroy();
    },
  };
}

/** A record of the DynamoDB Streams API as Lambda's event carries it (dates in epoch seconds, binaries in base64). */
function toLambdaRecord(record: SdkRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource ?? 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: change && {
      ApproximateCreationDateTime: change.ApproximateCreationDateTime && Math.floor(change.ApproximateCreationDateTime.getTime() / 1000),
      Keys: change.Keys && toLambdaImage(change.Keys),
      NewImage: change.NewImage && toLambdaImage(change.NewImage),
      OldImage: change.OldImage && toLambdaImage(change.OldImage),
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType,
    },
  };
}

function toLambdaImage(image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((item) => Buffer.from(item).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  return value as AttributeValue;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
