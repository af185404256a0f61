// DynamoDB Local: the official AWS jar shipped inside the npm package amplify-dynamodb-simulator (needs Java 17).
// Tables are created from the same definitions CDK deploys, with streams where the cloud has them.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
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
import { freePort, startChild, waitFor, type Child } from './processes.js';
import { LOCAL_CREDENTIALS } from './s3-local.js';
import { forward, readWhole, startFront } from './forward.js';
import { dynamoDbRefusal, type TwinAccess } from './grants.js';
import { checkSigV4, sendSignatureRefusal } from './sigv4.js';

/**
 * When set (tests), an item put in the last this-many milliseconds is not yet in any global secondary index: Query and
 * Scan on an index leave it out, as DynamoDB's eventually consistent GSIs can right after a write. Read per request.
 */
export const LOCAL_GSI_DELAY_MS_ENV = 'MODELLOOP_LOCAL_GSI_DELAY_MS';

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

/**
 * DynamoDB Local (the jar) on a loopback port of its own, behind a small proxy on `port`: the jar accepts any
 * credentials and has no host option, so the launcher (DynamoDbLoopback.java) binds it to 127.0.0.1 and ends it with
 * the twin, and the proxy refuses every request not signed (SigV4) with the twin's credentials or a function's, as
 * DynamoDB refuses an unknown key (UnrecognizedClientException) or a wrong signature (InvalidSignatureException), and
 * a function's request for a table or an action it is not granted (AccessDeniedException, lib/local/grants.ts).
 */
export async function startDynamoDbLocal(options: {
  port: number;
  /** Directory for the database file; omit for an in-memory database. */
  dataDir?: string;
  onLine: (line: string) => void;
  /** The credentials it accepts and what each may do. */
  access: TwinAccess;
}): Promise<DynamoDbLocal> {
  assertJava();
  const emulator = join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const jarPort = await freePort();
  const launcher = await compiledLauncher();
  const jar = startChild(
    'java',
    [
      `-Djava.library.path=${join(emulator, 'DynamoDBLocal_lib')}`,
      `-Dmodelloop.parentPid=${process.pid}`,
      '-cp',
      [launcher, join(emulator, 'DynamoDBLocal.jar')].join(delimiter),
      'DynamoDbLoopback',
      '-port',
      String(jarPort),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { name: 'dynamodb', onLine: options.onLine },
  );
  const proxy = await startSigningProxy({ port: options.port, target: jarPort, access: options.access, log: options.onLine });
  const child: Child = {
    process: jar.process,
    async stop() {
      await proxy.close();
      await jar.stop();
    },
  };
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localDynamoClient(endpoint);
  try {
    // Two minutes: the jar takes about 2 s on an idle machine, and half a minute on a 2-core one that runs much else.
    await waitFor('DynamoDB Local', () => client.send(new ListTablesCommand({})), 120_000);
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, child };
}

/**
 * The launcher's class, compiled once per version of its source into the temporary directory by the JDK compiler
 * module every Java 17 runtime carries (the javac command may be absent). A launch then costs no compilation.
 */
async function compiledLauncher(): Promise<string> {
  const source = join(import.meta.dirname, 'DynamoDbLoopback.java');
  const version = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const directory = join(tmpdir(), `modelloop-dynamodb-launcher-${version}`);
  if (existsSync(join(directory, 'DynamoDbLoopback.class'))) return directory;
  const staging = mkdtempSync(join(tmpdir(), 'modelloop-dynamodb-launcher-'));
  await promisify(execFile)('java', ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-d', staging, source]);
  try {
    renameSync(staging, directory);
  } catch {
    // another twin compiled it meanwhile
    rmSync(staging, { recursive: true, force: true });
  }
  return directory;
}

/** The proxy in front of the jar: checks each request's signature, forwards it, and applies the GSI delay knob. */
async function startSigningProxy(options: { port: number; target: number; access: TwinAccess; log: (line: string) => void }) {
  const putAt = new Map<string, number>();
  const tableShapes = new Map<string, Promise<{ key: string[]; globalIndexes: Set<string> }>>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readWhole(req);
    const signed = await checkSigV4({ method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, body }, options.access.credentialsOf);
    if ('refusal' in signed) return sendSignatureRefusal(res, signed.refusal);
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const denied = dynamoDbRefusal(options.access.principal(signed.accessKeyId)!, operation, parseJson(body), options.access.resources);
    if (denied) {
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'AccessDeniedException' });
      return void res.end(JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message: denied.message }));
    }
    const delayMs = Number(process.env[LOCAL_GSI_DELAY_MS_ENV] ?? 0);
    const answer = await forward(options.target, req, body);
    if (delayMs > 0 && answer.status === 200) {
      const request = parseJson(body);
      await recordPuts(operation, request);
      const globalIndex = request.IndexName && (await shapeOf(request.TableName as string)).globalIndexes.has(request.IndexName as string);
      if ((operation === 'Query' || operation === 'Scan') && globalIndex) {
        answer.body = await withoutRecentPuts(request.TableName as string, answer.body, delayMs);
        delete answer.headers['content-length'];
        delete answer.headers['x-amz-crc32'];
      }
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  /** A table's key attributes and global indexes (local indexes are as consistent as their table: only global ones lag). */
  function shapeOf(table: string) {
    let shape = tableShapes.get(table);
    if (!shape) {
      const client = localDynamoClient(`http://127.0.0.1:${options.target}`);
      shape = client
        .send(new DescribeTableCommand({ TableName: table }))
        .then(({ Table }) => ({
          key: (Table?.KeySchema ?? []).map((key) => key.AttributeName!),
          globalIndexes: new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName!)),
        }))
        .finally(() => client.destroy());
      shape.catch(() => tableShapes.delete(table));
      tableShapes.set(table, shape);
    }
    return shape;
  }

  async function keyOf(table: string, item: Record<string, unknown>): Promise<string> {
    return `${table}\u0000${JSON.stringify((await shapeOf(table)).key.map((name) => item[name]))}`;
  }

  async function recordPuts(operation: string, request: Record<string, any>): Promise<void> {
    const now = Date.now();
    const puts: [string, Record<string, unknown>][] = [];
    if (operation === 'PutItem') puts.push([request.TableName, request.Item]);
    if (operation === 'TransactWriteItems') for (const item of request.TransactItems ?? []) if (item.Put) puts.push([item.Put.TableName, item.Put.Item]);
    if (operation === 'BatchWriteItem') {
      for (const [table, writes] of Object.entries(request.RequestItems ?? {}) as [string, any[]][]) for (const write of writes) if (write.PutRequest) puts.push([table, write.PutRequest.Item]);
    }
    for (const [table, item] of puts) putAt.set(await keyOf(table, item), now);
    if (putAt.size > 50_000) putAt.delete(putAt.keys().next().value!);
  }

  async function withoutRecentPuts(table: string, responseBody: Buffer, delayMs: number): Promise<Buffer> {
    const page = JSON.parse(responseBody.toString('utf8')) as { Items?: Record<string, unknown>[]; Count?: number };
    if (!page.Items) return responseBody;
    const now = Date.now();
    const visible: Record<string, unknown>[] = [];
    for (const item of page.Items) if (now - (putAt.get(await keyOf(table, item)) ?? 0) >= delayMs) visible.push(item);
    return Buffer.from(JSON.stringify({ ...page, Items: visible, Count: visible.length }));
  }

  return startFront(options.port, handle, (line) => options.log(`dynamodb proxy: ${line}`));
}

function parseJson(body: Buffer): Record<string, any> {
  try {
    return JSON.parse(body.toString('utf8') || '{}') as Record<string, any>;
  } catch {
    return {};
  }
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
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
