// Deleting an account and downloading its data, over HTTP against the twin, checked from outside the app: DynamoDB
// Local queried table by table, s3rver listed, cognito-local signed in to. The ledger stays, anonymised, adding up.
import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand, type StartExecutionCommandInput } from '@aws-sdk/client-sfn';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, inject, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../lambdas/contracts/account.js';
import { ACCOUNT_DELETION, TABLES, type TableName } from '../../lambdas/data/tables.js';
import { ROUTES, publicApiRoutes, type RouteDefinition } from '../../lambdas/routes.js';
import { api } from '../support/api.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { listKeys, productJpeg, twinS3, uploadFile } from '../support/uploads.js';
import { exportAndDownload } from '../support/exports.js';
import { readZip } from '../support/zip.js';
import { createUser, signIn, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { tableName } = await import('../../lambdas/data/tables.js');
const { auditUser, resumeAccountDeletions } = await import('../../lambdas/domain/operations/reconciler.js');
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');
const { markAccountDeleting } = await import('../../lambdas/data/account-repo.js');
const { sfn } = await import('../../lambdas/core/sfn.js');

const s3 = twinS3(twin);
const BUCKET_NAMES = [twin.env.BUCKET_CLOTHING_IMAGES!, twin.env.BUCKET_RESULTS!];

/** A user with a profile, a clothing item, a pending upload, a purchase and a finished on-model picture. */
async function busyUser(): Promise<{ user: TestUser; itemId: string }> {
  const user = await createUser(twin);
  expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
  const bytes = await productJpeg();
  const imageKey = await uploadFile(twin, user, '/clothing-items/upload-url', bytes);
  const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey, name: 'Linen shirt' } });
  expect(item.status).toBe(201);
  await uploadFile(twin, user, '/generation-uploads/upload-url', bytes);
  const bought = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 20 }, headers: { 'idempotency-key': randomUUID() } });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  const started = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
    user,
    body: { clothingItemId: item.body.id, productType: 'clothing', prompt: 'young female model' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const generation = () => api(twin.apiUrl, 'GET', `/generations/${started.body.generationId}`, { user });
  await expect.poll(async () => (await generation()).body.status, { timeout: 90_000, interval: 200 }).not.toBe('processing');
  const ended = (await generation()).body;
  expect(ended, JSON.stringify(ended)).toMatchObject({ status: 'complete' });
  return { user, itemId: item.body.id };
}

/** The user's items in a table, found the way ACCOUNT_DELETION says they are. */
async function itemsOf(table: TableName, userId: string): Promise<unknown[]> {
  const rule = ACCOUNT_DELETION[table] as (typeof ACCOUNT_DELETION)[TableName];
  const key = rule.action === 'index' ? rule.attribute : TABLES[table].partitionKey.name;
  const page = await dynamo.send(
    new QueryCommand({
      TableName: tableName(table),
      ...(rule.action === 'index' ? { IndexName: rule.index } : {}),
      KeyConditionExpression: '#k = :v',
      ExpressionAttributeNames: { '#k': key },
      ExpressionAttributeValues: { ':v': userId },
    }),
  );
  return page.Items ?? [];
}

const deleteAccount = (user: TestUser, confirmEmail: string) => api(twin.apiUrl, 'POST', '/account/delete', { user, body: { confirmEmail } });

/**
 * What the pool says to the user's password now: 'signed in', or the name of the error that refused it. A deleted
 * account is refused by Cognito itself (NotAuthorizedException, or UserNotFoundException when the pool reveals that a
 * user does not exist); any other error (the emulator down, a network fault) is not "can no longer sign in".
 */
async function signInOutcome(user: TestUser): Promise<string> {
  try {
    await signIn(twin, user.email, user.password);
    return 'signed in';
  } catch (error) {
    return (error as Error).name;
  }
}
const REFUSED_SIGN_IN = /^(NotAuthorizedException|UserNotFoundException)$/;

/** Waits until nothing of the user is left but the profile's bare tombstone (its id and when it was deleted). */
async function deletionDone(user: TestUser, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = (await Promise.all(BUCKET_NAMES.map((bucket) => listKeys(s3, bucket, `${user.sub}/`)))).flat();
    const records = (await Promise.all((Object.keys(ACCOUNT_DELETION) as TableName[]).filter((table) => ACCOUNT_DELETION[table].action !== 'keep').map((table) => itemsOf(table, user.sub))))
      .flat()
      .filter((item) => Object.keys(item as object).sort().join() !== 'deleted_at,id');
    if (left.length === 0 && records.length === 0) return;
    if (Date.now() > deadline) throw new Error(`still there after ${timeoutMs / 1000} s: ${left.length} files, ${records.length} records`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A user with a profile and a clothing photo whose deletion was asked an hour ago, and whose execution died. */
async function deletionLeftBehind(): Promise<{ user: TestUser; tombstoneId: string }> {
  const user = await createUser(twin);
  expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
  await uploadFile(twin, user, '/clothing-items/upload-url', await productJpeg());
  const tombstoneId = await markAccountDeleting(user.sub, new Date(Date.now() - 3_600_000).toISOString());
  return { user, tombstoneId };
}

describe('Delete Account', () => {
  it('refuses an e-mail that is not the account\'s, and changes nothing', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    expect(await deleteAccount(user, 'someone-else@example.com')).toMatchObject({ status: 400, body: { code: 'EMAIL_MISMATCH', error: ACCOUNT_MESSAGES.emailMismatch } });
    expect(await deleteAccount(user, '')).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    expect(await signInOutcome(user)).toBe('signed in');
  });

  it('deletes the sign-in, every record and every file of the account; the ledger stays, anonymised, with its sums', async () => {
    const { user } = await busyUser();
    const bystander = await busyUser();
    const ledgerBefore = await ledgerRepo.listWholeLedger(user.sub);
    const balanceBefore = (await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits as number;
    expect(ledgerBefore.map((entry) => entry.transaction_type).sort()).toEqual(['debit', 'purchase', 'signup_bonus']);
    for (const table of ['profiles', 'clothingItems', 'generations'] as const) expect(await itemsOf(table, user.sub), table).not.toEqual([]);
    for (const bucket of BUCKET_NAMES) expect(await listKeys(s3, bucket, `${user.sub}/`), bucket).not.toEqual([]);

    // Typed in another case, as people do: the same address.
    const answer = await deleteAccount(user, `  ${user.email.toUpperCase()} `);
    expect(answer).toMatchObject({ status: 202, body: { status: 'deleting' } });

    // The workflow runs on after the answer: wait for its last step (the files) to have run.
    await deletionDone(user);
    expect(await signInOutcome(user)).toMatch(REFUSED_SIGN_IN);
    // The ID token the user still holds (valid up to an hour) brings back no profile and no sign-up credits.
    expect(await api(twin.apiUrl, 'GET', '/profile', { user })).toMatchObject({ status: 401, body: { code: 'ACCOUNT_DELETED' } });
    expect(await itemsOf('profiles', user.sub)).toEqual([{ id: user.sub, deleted_at: expect.any(String) }]);

    // The ledger: every entry kept under one tombstone id that names no one, adding up to the balance it had.
    const { Items: moved = [] } = await dynamo.send(
      new ScanCommand({ TableName: tableName('ledger'), FilterExpression: 'begins_with(user_id, :deleted) AND #ref = :ref', ExpressionAttributeNames: { '#ref': 'id' }, ExpressionAttributeValues: { ':deleted': 'deleted-', ':ref': ledgerBefore.find((entry) => entry.transaction_type === 'debit')!.id } }),
    );
    expect(moved).toHaveLength(1);
    const tombstone = String(moved[0]!.user_id);
    const kept = await ledgerRepo.listWholeLedger(tombstone);
    expect(kept.map(({ user_id: _user, ...entry }) => entry)).toEqual(ledgerBefore.map(({ user_id: _user, ...entry }) => entry));
    expect(kept.reduce((sum, entry) => sum + entry.amount, 0)).toBe(balanceBefore);
    expect(JSON.stringify(kept)).not.toContain(user.sub);
    expect(JSON.stringify(kept)).not.toContain(user.email);
    const tombstoneProfile = await ledgerRepo.getProfile(tombstone);
    expect(tombstoneProfile).toMatchObject({ current_credits: balanceBefore, email: '' });
    expect(await auditUser(tombstone)).toEqual([]);

    // Nobody else's data was touched.
    for (const table of ['profiles', 'clothingItems', 'generations', 'ledger'] as const) expect(await itemsOf(table, bystander.user.sub), table).not.toEqual([]);
    expect(await listKeys(s3, BUCKET_NAMES[0]!, `${bystander.user.sub}/`)).not.toEqual([]);
    expect(await signInOutcome(bystander.user)).toBe('signed in');
  });
});

/** A request to a route as a caller would send one: path ids filled in, a JSON body and an Idempotency-Key where it takes them. */
function requestOf(route: RouteDefinition) {
  return {
    path: route.path.replace(/\{[^}]+\}/g, 'x'),
    body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
    headers: { 'idempotency-key': randomUUID() },
  };
}

describe('a deleted account writes nothing', () => {
  it('from the moment Delete Account answers, every user route (ID token) and every /v1 route (API key) answers 401 ACCOUNT_DELETED', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    const key = await createApiKey(twin.apiUrl, user);
    // The authorizer's answer for this key is now cached (30 s): it still says the key is good.
    expect((await keyApi(twin.apiUrl, key.key, 'GET', '/profile')).status).toBe(200);

    expect(await deleteAccount(user, user.email)).toMatchObject({ status: 202 });
    const deleted = { status: 401, code: 'ACCOUNT_DELETED' };
    // With the key first: while the authorizer's cached answer says the key is good, the caller gate answers
    // ACCOUNT_DELETED; once the deletion workflow has deleted the key (each route's first call starts its function, so
    // the loop can outlast the cache), the authorizer answers API_KEY_INVALID. 401 either way, never the route's work.
    const withKey = [];
    for (const route of publicApiRoutes()) {
      const { path, body, headers } = requestOf(route);
      const answer = await keyApi(twin.apiUrl, key.key, route.method, path, { body, headers });
      withKey.push({ route: `/v1 ${route.method} ${route.path}`, status: answer.status, code: answer.body?.code });
    }
    expect(withKey[0]).toEqual({ route: withKey[0]!.route, ...deleted });
    const keyGone = withKey.findIndex((answer) => answer.code === 'API_KEY_INVALID');
    expect(withKey).toEqual(withKey.map(({ route }, index) => ({ route, status: 401, code: keyGone >= 0 && index >= keyGone ? 'API_KEY_INVALID' : 'ACCOUNT_DELETED' })));
    const withToken = [];
    for (const route of ROUTES.filter((candidate) => candidate.auth === 'user')) {
      const { path, body, headers } = requestOf(route);
      const answer = await api(twin.apiUrl, route.method, path, { user, body, headers });
      withToken.push({ route: `${route.method} ${route.path}`, status: answer.status, code: answer.body?.code });
    }
    expect(withToken).toEqual(withToken.map(({ route }) => ({ route, ...deleted })));

    // Once the workflow has run, the token is still refused, and nothing it tried above was written.
    await deletionDone(user);
    expect(await api(twin.apiUrl, 'POST', '/api-keys', { user, body: { name: 'after' } })).toMatchObject({ status: 401, body: { code: 'ACCOUNT_DELETED' } });
    expect(await api(twin.apiUrl, 'GET', '/profile', { user })).toMatchObject({ status: 401, body: { code: 'ACCOUNT_DELETED' } });
  });

  it("removes, in the workflow's last step, what a request that passed just before the mark wrote while the deletion ran", async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    await uploadFile(twin, user, '/clothing-items/upload-url', await productJpeg());
    expect(await deleteAccount(user, user.email)).toMatchObject({ status: 202 });
    await deletionDone(user);
    // Written as a slow request let in before the mark would, after the workflow's first pass removed everything.
    await dynamo.send(new PutCommand({ TableName: tableName('clothingItems'), Item: { user_id: user.sub, id: 'raced-item', name: 'Raced', created_at: new Date().toISOString() } }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET_NAMES[0]!, Key: `${user.sub}/raced.jpg`, Body: await productJpeg() }));
    expect(await itemsOf('clothingItems', user.sub)).toHaveLength(1);
    await deletionDone(user, 120_000);
    expect(await itemsOf('clothingItems', user.sub)).toEqual([]);
    expect(await listKeys(s3, BUCKET_NAMES[0]!, `${user.sub}/`)).toEqual([]);
  }, 240_000);
});

describe('a deletion whose execution died', () => {
  it('is resumed once by the reconciler and runs to its end; a finished one is left alone', async () => {
    const { user, tombstoneId } = await deletionLeftBehind();
    // No execution of that name exists (as after a twin killed mid-deletion): the reconciler starts it.
    const findings = await resumeAccountDeletions({ kind: 'past-timeout' });
    expect(findings.resumed).toContainEqual({ kind: 'account-deletion', userId: user.sub, id: tombstoneId });
    expect(findings.abandoned).not.toContain(user.sub);
    // A run while it goes on starts nothing more for this account.
    const during = await resumeAccountDeletions({ kind: 'past-timeout' });
    expect(during.resumed.filter((record) => record.userId === user.sub)).toEqual([]);
    await deletionDone(user);
    expect(await signInOutcome(user)).toMatch(REFUSED_SIGN_IN);
    expect(await itemsOf('profiles', user.sub)).toEqual([{ id: user.sub, deleted_at: expect.any(String) }]);
    const after = await resumeAccountDeletions({ kind: 'past-timeout' });
    expect(after.resumed.filter((record) => record.userId === user.sub)).toEqual([]);
  });

  it('after a failed execution starts the next one, and after the last allowed one reports the account for an operator', async () => {
    const { user, tombstoneId } = await deletionLeftBehind();
    const realSfn = new SFNClient({});
    const started: StartExecutionCommandInput[] = [];
    let stuck: Awaited<ReturnType<typeof deletionLeftBehind>> | undefined;
    const faults = mockClient(sfn);
    try {
      // Injected: the deletion's first execution failed after its retries (its name is the tombstone id).
      faults.on(DescribeExecutionCommand).callsFake(async (input: { executionArn: string }) => {
        if (input.executionArn.endsWith(`:${tombstoneId}`)) return { status: 'FAILED' };
        return realSfn.send(new DescribeExecutionCommand(input));
      });
      faults.on(StartExecutionCommand).callsFake(async (input: StartExecutionCommandInput) => {
        started.push(input);
        return realSfn.send(new StartExecutionCommand(input));
      });
      const findings = await resumeAccountDeletions({ kind: 'past-timeout' });
      expect(findings.resumed).toContainEqual({ kind: 'account-deletion', userId: user.sub, id: `${tombstoneId}-resume-1` });
      expect(started.filter((input) => input.name?.startsWith(tombstoneId)).map((input) => [input.name, JSON.parse(input.input!)])).toEqual([
        [`${tombstoneId}-resume-1`, { userId: user.sub, tombstoneId }],
      ]);
      await deletionDone(user);
      expect(await signInOutcome(user)).toMatch(REFUSED_SIGN_IN);

      // Every allowed execution (the first and its resumes) ended and the profile still says deleting: nothing is
      // started, an operator is told.
      const lastLeft = await deletionLeftBehind();
      stuck = lastLeft;
      faults.on(DescribeExecutionCommand).resolves({ status: 'FAILED' });
      started.length = 0;
      const exhausted = await resumeAccountDeletions({ kind: 'past-timeout' });
      expect(exhausted.abandoned).toContain(lastLeft.user.sub);
      expect(started.filter((input) => input.name?.startsWith(lastLeft.tombstoneId))).toEqual([]);
    } finally {
      faults.restore();
    }
    // Without the injected failures (no execution of it exists), the next run finishes that account too.
    if (!stuck) throw new Error('the exhausted case did not run');
    const retried = await resumeAccountDeletions({ kind: 'past-timeout' });
    expect(retried.resumed).toContainEqual({ kind: 'account-deletion', userId: stuck.user.sub, id: stuck.tombstoneId });
    await deletionDone(stuck.user);
  });
});

describe('Download my data', () => {
  it('holds every record the account has: batches with their photos, webhook endpoints, API keys, imports and receipts, never a secret', async () => {
    const { user, itemId } = await busyUser();
    const webhook = await api(twin.apiUrl, 'POST', '/webhooks', { user, body: { url: 'http://localhost:4000/hooks', events: ['batch.completed'] } });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const key = await createApiKey(twin.apiUrl, user, 'Shopify sync');
    const imported = await api(twin.apiUrl, 'POST', '/imports', { user, body: { url: `${inject('sampleShopUrl')}/products/linen-shirt` } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const batch = await api(twin.apiUrl, 'POST', '/generate-batch', {
      user,
      body: { batchItems: [{ clothingItemId: itemId, prompt: 'young female model', cameraAngles: ['Front', 'Back'], backdrop: 'white' }], aiModel: 'modelloop-studio', imageSize: '1k' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const deadline = Date.now() + 120_000;
    while ((await api(twin.apiUrl, 'GET', `/batches/${batch.body.batchId}`, { user })).body.status === 'processing') {
      if (Date.now() > deadline) throw new Error('batch still processing');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    const { zip } = await exportAndDownload(twin.apiUrl, user);
    const entries = readZip(zip);
    const read = (name: string) => JSON.parse(entries.get(name)?.toString('utf8') ?? 'null');

    expect(read('batches.json')).toEqual([
      expect.objectContaining({ id: batch.body.batchId, status: 'complete', photos: [expect.objectContaining({ status: 'complete' }), expect.objectContaining({ status: 'complete' })] }),
    ]);
    expect(read('webhook-endpoints.json')).toEqual([{ id: webhook.body.id, url: 'http://localhost:4000/hooks', events: ['batch.completed'], created_at: expect.any(String), disabled_at: null }]);
    expect(read('api-keys.json')).toEqual([
      { id: key.id, name: 'Shopify sync', prefix: key.key.slice(0, 7), last4: key.key.slice(-4), created_at: expect.any(String), last_used_at: null, revoked_at: null },
    ]);
    expect(read('imports.json')).toEqual([expect.objectContaining({ id: imported.body.importId, page_url: expect.stringContaining('/products/linen-shirt'), candidates: expect.any(Array) })]);
    expect(read('receipts.json')).toEqual([expect.objectContaining({ credits: 20 })]);
    for (const name of ['batches.json', 'webhook-endpoints.json', 'api-keys.json', 'imports.json', 'receipts.json']) expect(entries.get('README.txt')!.toString('utf8')).toContain(name);
    // Secrets never leave: not the webhook's signing secret, not the key, not the key's hash.
    const everything = zip.toString('latin1');
    expect(webhook.body.secret).toMatch(/^whsec_/);
    expect(everything).not.toContain(webhook.body.secret);
    expect(everything).not.toContain(key.key);
    expect(everything).not.toContain('key_hash');
  }, 240_000);

  it('answers a zip of the account\'s items, generations and ledger with the files they name', async () => {
    const { user, itemId } = await busyUser();
    const { ready, zip } = await exportAndDownload(twin.apiUrl, user);
    expect(ready).toMatchObject({ fileName: expect.stringMatching(/^modelloop-data-\d{8}\.zip$/), filesIncluded: 2, filesLinked: 0 });
    expect(Date.parse(ready.expiresAt!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    const download = await fetch(ready.url!);
    expect(download.headers.get('content-disposition')).toContain(ready.fileName);
    const entries = readZip(zip);
    const names = [...entries.keys()];
    expect(names).toEqual(
      expect.arrayContaining(['README.txt', 'profile.json', 'clothing-items.json', 'generations.json', 'video-jobs.json', 'credit-transactions.json', 'credit-transactions.csv', 'files.csv']),
    );
    const items = JSON.parse(entries.get('clothing-items.json')!.toString('utf8'));
    expect(items).toEqual([expect.objectContaining({ id: itemId, name: 'Linen shirt' })]);
    const generations = JSON.parse(entries.get('generations.json')!.toString('utf8'));
    expect(generations).toEqual([expect.objectContaining({ status: 'complete', generation_type: 'image' })]);
    const ledger = JSON.parse(entries.get('credit-transactions.json')!.toString('utf8'));
    expect(ledger.map((entry: { transaction_type: string }) => entry.transaction_type).sort()).toEqual(['debit', 'purchase', 'signup_bonus']);
    expect(entries.get('credit-transactions.csv')!.toString('utf8').split('\r\n')[0]).toBe('created_at,id,transaction_type,amount,balance_after,description');
    expect(JSON.parse(entries.get('profile.json')!.toString('utf8'))).toMatchObject({ id: user.sub, email: user.email });
    // The item's image, byte for byte what was uploaded, and the generated picture.
    const itemFile = names.find((name) => name.startsWith('clothing-items/'))!;
    expect(entries.get(itemFile)!.equals(await productJpeg())).toBe(true);
    const pictureFile = names.find((name) => name.startsWith('generations/'))!;
    expect(entries.get(pictureFile)!.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(entries.get('files.csv')!.toString('utf8')).toContain(`${itemFile},yes,`);
  });
});
