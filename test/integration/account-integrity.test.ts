// The account's own records, over HTTP against the twin (issue 38 item 3, issue 40 items 3 and 4): deleting a user who
// signed in with Google, a profile made by an API key's first call, and "Download my data" under parallel requests.
// Checked from outside the app: cognito-local asked for the user, DynamoDB Local and s3rver read directly.
import { randomUUID } from 'node:crypto';
import { ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { USER_LIMITS } from '../../lambdas/contracts/catalog.js';
import { api } from '../support/api.js';
import { exportEnded } from '../support/exports.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { listKeys, twinS3 } from '../support/uploads.js';
import { cognitoClient, createUser, signInFederated, type TestUser } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { tableName } = await import('../../lambdas/data/tables.js');
const ledgerRepo = await import('../../lambdas/data/credits-repo.js');

const EPOCH = new Date(0).toISOString();
const poolUsers = async (sub: string) =>
  (await cognitoClient(twin).send(new ListUsersCommand({ UserPoolId: twin.userPoolId, Filter: `sub = "${sub}"` }))).Users ?? [];
const signupGrant = async (userId: string) =>
  (await dynamo.send(new GetCommand({ TableName: tableName('ledger'), Key: { user_id: userId, id: 'grant#signup' } }))).Item!;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('deleting an account that signed in with Google', () => {
  it('deletes the pool user named Google_<id>, whose name is not its sub', async () => {
    const user = await signInFederated(twin);
    expect(user.username).toMatch(/^Google_/);
    expect(user.username).not.toBe(user.sub);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    expect(await poolUsers(user.sub)).toHaveLength(1);
    const answer = await api(twin.apiUrl, 'POST', '/account/delete', { user, body: { confirmEmail: user.email } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    await until(async () => (await poolUsers(user.sub)).length === 0, 'the Google user is still in the pool');
  });

  it('finds the pool user by sub when the profile was made before it kept the username', async () => {
    const user = await signInFederated(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    // As a profile of the earlier code: no pool username.
    await dynamo.send(new UpdateCommand({ TableName: tableName('profiles'), Key: { id: user.sub }, UpdateExpression: 'REMOVE cognito_username' }));
    const { DeleteSignIn } = await import('../../lambdas/handlers/account-delete-sign-in.js').then((module) => ({ DeleteSignIn: module.handler }));
    await DeleteSignIn({ userId: user.sub, tombstoneId: `deleted-${crypto.randomUUID()}` });
    expect(await poolUsers(user.sub)).toEqual([]);
  });
});

describe('a profile made by an API key\'s first call', () => {
  async function userWithKeyOnly(): Promise<TestUser & { key: string }> {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    // Making a key makes no profile: the key's call below is the account's first.
    expect((await dynamo.send(new GetCommand({ TableName: tableName('profiles'), Key: { id: user.sub } }))).Item).toBeUndefined();
    return { ...user, key };
  }

  it('has the real e-mail and creation time, and so has its sign-up grant', async () => {
    const user = await userWithKeyOnly();
    const [poolUser] = await poolUsers(user.sub);
    const answer = await keyApi(twin.apiUrl, user.key, 'GET', '/profile');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.email).toBe(user.email);
    expect(answer.body.created_at).toBe(poolUser!.UserCreateDate!.toISOString());
    expect(answer.body.last_login).not.toBe(EPOCH);
    expect((await signupGrant(user.sub)).created_at).toBe(answer.body.created_at);
    // The ID token's next call changes neither.
    const again = await api(twin.apiUrl, 'GET', '/profile', { user });
    expect(again.body).toMatchObject({ email: user.email, created_at: answer.body.created_at });
  });

  it('already written with no e-mail and 1970 is repaired by the next call, with a key or an ID token', async () => {
    for (const via of ['key', 'token'] as const) {
      const user = await userWithKeyOnly();
      // The row the earlier code wrote for a key's first call.
      await ledgerRepo.createProfile(user.sub, '', EPOCH);
      const answer = via === 'key' ? await keyApi(twin.apiUrl, user.key, 'GET', '/profile') : await api(twin.apiUrl, 'GET', '/profile', { user });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.email, via).toBe(user.email);
      expect(answer.body.created_at, via).not.toBe(EPOCH);
      expect(answer.body.last_login, via).not.toBe(EPOCH);
      const stored = (await dynamo.send(new GetCommand({ TableName: tableName('profiles'), Key: { id: user.sub } }))).Item!;
      expect(stored, via).toMatchObject({ email: user.email, created_at: answer.body.created_at, cognito_username: expect.any(String) });
      expect((await signupGrant(user.sub)).created_at, via).toBe(answer.body.created_at);
    }
  });
});

describe('Download my data under parallel requests', () => {
  const s3 = twinS3(twin);
  const exportKeys = (user: TestUser) => listKeys(s3, twin.env.BUCKET_RESULTS!, `${user.sub}/exports/`);
  const exportNow = (user: TestUser) =>
    fetch(`${twin.apiUrl}/account/export`, { method: 'POST', headers: { authorization: `Bearer ${user.idToken}` } });

  it(`runs one export at a time, ${USER_LIMITS.rates.exports.limit} a day, each under a key of its own; beyond: 429 with Retry-After`, async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    const parallel = await Promise.all(Array.from({ length: 6 }, () => exportNow(user)));
    const statuses = parallel.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const busy = parallel.find((answer) => answer.status === 429)!;
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await busy.json()).toMatchObject({ code: 'ALREADY_RUNNING' });

    const first = (await parallel.find((answer) => answer.status === 202)!.json()) as { exportId: string };
    const ready = [await exportEnded(twin.apiUrl, user, first.exportId)];
    for (let done = 1; done < USER_LIMITS.rates.exports.limit; done++) {
      const answer = await exportNow(user);
      expect(answer.status).toBe(202);
      ready.push(await exportEnded(twin.apiUrl, user, ((await answer.json()) as { exportId: string }).exportId));
    }
    const over = await exportNow(user);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toMatchObject({ code: 'RATE_LIMITED' });

    // Every export its own object, none overwritten: as many keys as exports, each with a random id.
    expect(ready.map((one) => one.status)).toEqual(ready.map(() => 'ready'));
    const keys = await exportKeys(user);
    expect(keys).toHaveLength(USER_LIMITS.rates.exports.limit);
    for (const key of keys) expect(key).toMatch(/\/exports\/modelloop-data-\d{8}T\d{6}-[0-9a-f-]{36}\.zip$/);
    expect((await fetch(ready.at(-1)!.url!)).status).toBe(200);
    // Another user is not affected.
    const other = await createUser(twin);
    expect((await exportNow(other)).status).toBe(202);
  }, 300_000);

  it('frees the running place when an export ends, and a place left by a killed export frees itself', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    // A lease an export took and never gave back, long run out.
    await dynamo.send(new DeleteCommand({ TableName: tableName('limits'), Key: { id: `lease#${user.sub}#exports` } }));
    const { takeLease } = await import('../../lambdas/data/limits-repo.js');
    const past = Date.now() - 3_600_000;
    expect(await takeLease(user.sub, 'exports', 'killed-export', { id: `${user.sub}#exports#test`, limit: 99, windowEndsAt: past + 86_400_000 }, 60, past)).toBe('taken');
    const first = await exportNow(user);
    expect(first.status).toBe(202);
    expect((await exportEnded(twin.apiUrl, user, ((await first.json()) as { exportId: string }).exportId)).status).toBe('ready');
    expect((await exportNow(user)).status).toBe(202);
  }, 300_000);

  it('gives back the place of an export whose execution is gone (a restarted twin), and marks that export failed', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    const { takeLease } = await import('../../lambdas/data/limits-repo.js');
    const { startDataExport } = await import('../../lambdas/data/account-export-repo.js');
    // An export recorded two minutes ago whose place is still held (its lease runs for half an hour), with no execution.
    const lost = randomUUID();
    const then = Date.now() - 120_000;
    expect(await takeLease(user.sub, 'exports', lost, { id: `${user.sub}#exports#lost`, limit: 99, windowEndsAt: then + 86_400_000 }, 1800, then)).toBe('taken');
    expect(await startDataExport(user.sub, lost, new Date(then).toISOString())).toBe(true);

    const next = await exportNow(user);
    expect(next.status, await next.clone().text()).toBe(202);
    const started = (await next.json()) as { exportId: string };
    expect(started.exportId).not.toBe(lost);
    expect((await exportEnded(twin.apiUrl, user, started.exportId)).status).toBe('ready');
  }, 300_000);
});
