// Global secondary indexes are eventually consistent in DynamoDB, and the twin can be told to show it
// (MODELLOOP_LOCAL_GSI_DELAY_MS): an item put a moment ago is not yet in any global index. The API-key authorizer finds
// keys through such an index and its answer is cached per key, so a key handed out before the index had it would be
// refused as unknown for the whole cache period. A key is usable the moment its creation answers.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableEnvName } from '../../lambdas/data/tables.js';
import { LOCAL_GSI_DELAY_MS_ENV } from '../../lib/local/dynamodb-local.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { createUser } from '../../lib/local/users.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { exited, killTree, startTwinProcess, type TwinProcess } from '../support/twin-process.js';

const GSI_DELAY_MS = 3000;
const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-gsi-delay-'));
let twin: TwinProcess;

beforeAll(async () => {
  twin = await startTwinProcess({ dataDir, env: { [LOCAL_GSI_DELAY_MS_ENV]: String(GSI_DELAY_MS) } });
}, 300_000);

afterAll(async () => {
  if (twin) {
    killTree(twin.child, 'SIGTERM');
    await exited(twin.child);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a twin with delayed global indexes', () => {
  it('shows an item in a global index only a while after it was put', async () => {
    const { env } = twin.info;
    const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: env.AWS_ENDPOINT_URL_DYNAMODB, region: env.AWS_REGION, credentials: LOCAL_CREDENTIALS }));
    const table = env[tableEnvName('apiKeys')]!;
    const keyHash = `test-${randomUUID()}`;
    await dynamo.send(new PutCommand({ TableName: table, Item: { user_id: `user-${randomUUID()}`, id: 'key_test', key_hash: keyHash } }));
    const byHash = () => dynamo.send(new QueryCommand({ TableName: table, IndexName: 'by_hash', KeyConditionExpression: 'key_hash = :hash', ExpressionAttributeValues: { ':hash': keyHash } }));
    expect((await byHash()).Items).toEqual([]);
    await new Promise((resolveWait) => setTimeout(resolveWait, GSI_DELAY_MS + 200));
    expect((await byHash()).Items).toHaveLength(1);
  });

  it('answers the first call of a key made a moment ago, and every call after it', async () => {
    const user = await createUser(twin.info, `gsi-${randomUUID().slice(0, 8)}@example.com`);
    const { key } = await createApiKey(twin.info.apiUrl, user);
    const first = await keyApi(twin.info.apiUrl, key, 'GET', '/profile');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await keyApi(twin.info.apiUrl, key, 'GET', '/profile')).status).toBe(200);
  }, 120_000);
});
