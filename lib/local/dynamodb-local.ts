// DynamoDB Local: the official AWS jar shipped inside the npm package amplify-dynamodb-simulator (needs Java 17).
// Tables are created from the same definitions CDK deploys, with streams where the cloud has them.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ScanCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { TABLES, type TableDefinition, type TableName } from '../../lambdas/data/tables.js';
import { startChild, waitFor, type Child } from './processes.js';

const JAVA_MISSING =
  'Java 17 or newer is needed to run DynamoDB Local, and `java` was not found. ' +
  'Install it with `apt-get install -y openjdk-17-jre-headless` (Debian/Ubuntu) or `brew install openjdk@17` (macOS), then run the command again.';

export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
}

export interface DynamoDbLocal {
  endpoint: string;
  child: Child;
}

export async function startDynamoDbLocal(options: {
  port: number;
  /** Directory for the database file; omit for an in-memory database. */
  dataDir?: string;
  onLine: (line: string) => void;
}): Promise<DynamoDbLocal> {
  assertJava();
  const emulator = join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = startChild(
    'java',
    [`-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`, '-jar', join(emulator, 'DynamoDBLocal.jar'), '-port', String(options.port), '-sharedDb', ...storage],
    { name: 'dynamodb', onLine: options.onLine },
  );
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localDynamoClient(endpoint);
  try {
    await waitFor('DynamoDB Local', () => client.send(new ListTablesCommand({})));
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { endpoint, child };
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Creates the tables that don't exist yet; returns the physical name of every table. */
export async function ensureTables(endpoint: string, prefix: string): Promise<Record<TableName, string>> {
  const client = localDynamoClient(endpoint);
  const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
  const names = {} as Record<TableName, string>;
  for (const [logical, definition] of Object.entries(TABLES) as [TableName, TableDefinition][]) {
    const name = `${prefix}-${logical}`;
    names[logical] = name;
    if (existing.has(name) && (await hasIndexes(client, name, definition))) {
      await addMissingGlobalIndexes(client, name, definition);
      continue;
    }
    await client.send(new CreateTableCommand(createTableInput(name, definition)));
    if (definition.ttlAttribute) {
      await client.send(
        new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true } }),
      );
    }
  }
  client.destroy();
  return names;
}

/**
 * Whether a table kept in the data directory has the local indexes its definition now declares. Local indexes can
 * only be made with the table, so a table from before an index was added is recreated while it is still empty; one
 * with data is left alone and the start stops, saying what to do.
 */
async function hasIndexes(client: DynamoDBClient, name: string, definition: TableDefinition): Promise<boolean> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((Table?.LocalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const missing = (definition.localIndexes ?? []).filter((index) => !present.has(index.name));
  if (missing.length === 0) return true;
  const { Count } = await client.send(new ScanCommand({ TableName: name, Limit: 1, Select: 'COUNT' }));
  if (Count) {
    throw new Error(
      `Table ${name} in the data directory was created before its index ${missing[0]!.name} existed and holds data. ` +
        'Remove the data directory (.data/dynamodb) to recreate the tables.',
    );
  }
  await client.send(new DeleteTableCommand({ TableName: name }));
  return false;
}

/** Global indexes can be added to a table with data: a table kept from before one was declared gets it now. */
async function addMissingGlobalIndexes(client: DynamoDBClient, name: string, definition: TableDefinition): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(name, definition);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    const keyNames = new Set(index.KeySchema!.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: wanted.AttributeDefinitions!.filter((attribute) => keyNames.has(attribute.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
  }
}

function createTableInput(name: string, definition: TableDefinition): CreateTableCommandInput {
  const attributes = new Map<string, string>();
  const key = (partition: { name: string; type: string }, sort?: { name: string; type: string }) => {
    for (const attribute of [partition, sort]) if (attribute) attributes.set(attribute.name, attribute.type);
    return [
      { AttributeName: partition.name, KeyType: 'HASH' as const },
      ...(sort ? [{ AttributeName: sort.name, KeyType: 'RANGE' as const }] : []),
    ];
  };
  const KeySchema = key(definition.partitionKey, definition.sortKey);
  const LocalSecondaryIndexes = definition.localIndexes?.map((index) => ({
    IndexName: index.name,
    KeySchema: key(definition.partitionKey, index.sortKey),
    Projection: { ProjectionType: 'ALL' as const },
  }));
  const GlobalSecondaryIndexes = definition.globalIndexes?.map((index) => ({
    IndexName: index.name,
    KeySchema: key(index.partitionKey, index.sortKey),
    Projection: { ProjectionType: index.keysOnly ? ('KEYS_ONLY' as const) : ('ALL' as const) },
  }));
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema,
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType: AttributeType as 'S' | 'N' })),
    LocalSecondaryIndexes,
    GlobalSecondaryIndexes,
    StreamSpecification: definition.stream ? { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } : undefined,
  };
}
