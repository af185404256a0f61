// Realtime over the real local twin: ws clients with real cognito-local tokens, the local WebSocket API running the
// $connect authorizer and handlers, DynamoDB Local streams → the stream poller → the fan-out → @connections → sockets.
import { randomUUID } from 'node:crypto';
import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { RealtimeMessage } from '../../lambdas/contracts/api.js';
import { api } from '../support/api.js';
import { createUser, type TestUser } from '../support/users.js';

const twin = inject('twin');
// The repositories read their table names and endpoints from the environment, as the deployed functions do.
Object.assign(process.env, twin.env);
const { connectionsOf, saveConnection, connectionItem } = await import('../../lambdas/data/connections-repo.js');
const { debit } = await import('../../lambdas/domain/credits.js');
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { tableName } = await import('../../lambdas/data/tables.js');

const WAIT_MS = 10_000;

/** A client socket that records every message the server pushes. */
interface Client {
  socket: WebSocket;
  messages: RealtimeMessage[];
  /** Resolves with the first message (already received or coming) that matches. */
  next(match: (message: RealtimeMessage) => boolean): Promise<RealtimeMessage>;
  close(): Promise<void>;
}

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

function connect(token: string | undefined): Promise<Client> {
  const url = token === undefined ? twin.websocketUrl : `${twin.websocketUrl}?token=${encodeURIComponent(token)}`;
  const socket = new WebSocket(url);
  const messages: RealtimeMessage[] = [];
  const waiters: { match: (message: RealtimeMessage) => boolean; resolve: (message: RealtimeMessage) => void }[] = [];
  socket.on('message', (data) => {
    const message = RealtimeMessage.parse(JSON.parse(String(data)));
    messages.push(message);
    for (const waiter of waiters.filter((w) => w.match(message))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  const client: Client = {
    socket,
    messages,
    next: (match) =>
      new Promise((resolve, reject) => {
        const found = messages.find(match);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error(`No matching message within ${WAIT_MS} ms; got ${JSON.stringify(messages)}`)), WAIT_MS);
        waiters.push({ match, resolve: (message) => (clearTimeout(timer), resolve(message)) });
      }),
    close: () =>
      new Promise((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      clients.push(client);
      resolve(client);
    });
    socket.once('unexpected-response', (_request, response) => reject(new RefusedError(response.statusCode ?? 0)));
    socket.once('error', reject);
  });
}

class RefusedError extends Error {
  constructor(readonly status: number) {
    super(`Refused with ${status}`);
  }
}

async function refusal(token: string | undefined): Promise<number> {
  const error = await connect(token).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(RefusedError);
  return (error as RefusedError).status;
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const buy = (user: TestUser, credits: number) =>
  api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits }, headers: { 'idempotency-key': randomUUID() } });

/** A user whose profile exists (the first authenticated call creates it with the sign-up credits). */
async function customer(): Promise<TestUser> {
  const user = await createUser(twin);
  expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS);
  return user;
}

const liveIds = async (user: TestUser) => (await connectionsOf(user.sub)).map((connection) => connection.connectionId);
const balancesOf = (client: Client) => client.messages.flatMap((message) => (message.type === 'credits' ? [message.current_credits] : []));
const credits = (value: number) => (message: RealtimeMessage) => message.type === 'credits' && message.current_credits === value;

describe('live credits', () => {
  it("sends a balance change to every socket of its owner and to nobody else's", async () => {
    const [alice, bob] = await Promise.all([customer(), customer()]);
    const [aliceTab1, aliceTab2, bobTab] = await Promise.all([connect(alice.idToken), connect(alice.idToken), connect(bob.idToken)]);
    await eventually(async () => (await liveIds(alice)).length === 2 && (await liveIds(bob)).length === 1, 'three saved connections');

    expect((await buy(alice, 7)).status).toBe(200);
    await aliceTab1.next(credits(SIGNUP_CREDITS + 7));
    await aliceTab2.next(credits(SIGNUP_CREDITS + 7));

    await debit(alice.sub, { idempotencyKey: randomUUID(), amount: 3, description: 'Realtime test debit', ref: `test-${randomUUID()}` });
    await aliceTab1.next(credits(SIGNUP_CREDITS + 4));
    await aliceTab2.next(credits(SIGNUP_CREDITS + 4));

    // Bob's own change comes after Alice's were delivered (one shard, in order): by then anything misrouted would be here.
    expect((await buy(bob, 2)).status).toBe(200);
    await bobTab.next(credits(SIGNUP_CREDITS + 2));
    // Each socket saw its owner's balances only (the sign-up grant may arrive after the connect, or before it).
    expect(balancesOf(bobTab)).toEqual(expect.arrayContaining([SIGNUP_CREDITS + 2]));
    expect(new Set([...balancesOf(bobTab), SIGNUP_CREDITS, SIGNUP_CREDITS + 2])).toEqual(new Set([SIGNUP_CREDITS, SIGNUP_CREDITS + 2]));
    for (const tab of [aliceTab1, aliceTab2]) {
      expect(balancesOf(tab).filter((balance) => balance !== SIGNUP_CREDITS)).toEqual([SIGNUP_CREDITS + 7, SIGNUP_CREDITS + 4]);
    }
  });

  it('says nothing when a profile changes without a balance change', async () => {
    const user = await customer();
    const tab = await connect(user.idToken);
    // A sign-in moves last_login only.
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('profiles'),
        Key: { id: user.sub },
        UpdateExpression: 'SET last_login = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    expect((await buy(user, 1)).status).toBe(200);
    await tab.next(credits(SIGNUP_CREDITS + 1));
    expect(balancesOf(tab).filter((balance) => balance !== SIGNUP_CREDITS)).toEqual([SIGNUP_CREDITS + 1]);
    expect(tab.messages.every((message) => message.type === 'credits')).toBe(true);
  });
});

describe('live lists', () => {
  it.each([
    ['clothingItems', 'clothing-items'],
    ['generations', 'generations'],
    ['jobs', 'jobs'],
  ] as const)('tells the owner when %s changes', async (table, resource) => {
    const [owner, other] = await Promise.all([createUser(twin), createUser(twin)]);
    const [ownerTab, otherTab] = await Promise.all([connect(owner.idToken), connect(other.idToken)]);
    await dynamo.send(
      new PutCommand({ TableName: tableName(table), Item: { user_id: owner.sub, id: randomUUID(), created_at: new Date().toISOString() } }),
    );
    await ownerTab.next((message) => message.type === 'changed' && message.resource === resource);
    await dynamo.send(
      new PutCommand({ TableName: tableName(table), Item: { user_id: other.sub, id: randomUUID(), created_at: new Date().toISOString() } }),
    );
    await otherTab.next((message) => message.type === 'changed' && message.resource === resource);
    expect(ownerTab.messages).toEqual([{ type: 'changed', resource }]);
    expect(otherTab.messages).toEqual([{ type: 'changed', resource }]);
  });
});

describe('connections', () => {
  it('saves a connection under the verified user and removes it when the socket closes', async () => {
    const user = await createUser(twin);
    const tab = await connect(user.idToken);
    await eventually(async () => (await liveIds(user)).length === 1, 'the saved connection');
    const [saved] = await connectionsOf(user.sub);
    expect(saved!.connectedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

    await tab.close();
    await eventually(async () => (await liveIds(user)).length === 0, 'the connection to be removed');
  });

  it('refuses a connect without a token, with a malformed one, a forged one or another pool client’s', async () => {
    const user = await createUser(twin);
    expect(await refusal(undefined)).toBe(401);
    expect(await refusal('')).toBe(401);
    expect(await refusal('not-a-jwt')).toBe(401);
    const [header, payload, signature] = user.idToken.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), sub: randomUUID() }),
    ).toString('base64url');
    expect(await refusal(`${header}.${forgedPayload}.${signature}`)).toBe(401);
    const wrongAudience = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')), aud: 'another-client' }),
    ).toString('base64url');
    expect(await refusal(`${header}.${wrongAudience}.${signature}`)).toBe(401);
    expect(await liveIds(user)).toEqual([]);
  });

  it('forgets a stale connection that answers 410 Gone and still reaches the live one', async () => {
    const user = await customer();
    const tab = await connect(user.idToken);
    const staleId = 'stale-' + randomUUID().slice(0, 8) + '=';
    await saveConnection(connectionItem(staleId, user.sub, new Date(Date.now() - 60_000)));
    await eventually(async () => (await liveIds(user)).length === 2, 'both connections saved');

    expect((await buy(user, 4)).status).toBe(200);
    await tab.next(credits(SIGNUP_CREDITS + 4));
    await eventually(async () => !(await liveIds(user)).includes(staleId), 'the stale connection to be removed');
    expect(await liveIds(user)).toHaveLength(1);
  });

  it('serves the @connections management API to signed callers: GET describes, DELETE closes', async () => {
    const user = await createUser(twin);
    const tab = await connect(user.idToken);
    await eventually(async () => (await liveIds(user)).length === 1, 'the saved connection');
    const [connectionId] = await liveIds(user);
    const management = new ApiGatewayManagementApiClient({ endpoint: twin.env.WEBSOCKET_CALLBACK_URL });

    const described = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(described.ConnectedAt).toBeInstanceOf(Date);
    expect(described.Identity?.SourceIp).toBeTruthy();

    const unsigned = await fetch(`${twin.env.WEBSOCKET_CALLBACK_URL}/@connections/${encodeURIComponent(connectionId!)}`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(403);

    // The twin's access key id with a signature made from another secret: refused, nothing reaches the socket.
    const forger = new ApiGatewayManagementApiClient({
      endpoint: twin.env.WEBSOCKET_CALLBACK_URL,
      region: twin.region,
      credentials: { accessKeyId: twin.env.AWS_ACCESS_KEY_ID!, secretAccessKey: 'not-the-twins-secret' },
    });
    const forged = JSON.stringify({ type: 'credits', current_credits: 999999 });
    await expect(forger.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(forged) }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    // A message over the 128 KB WebSocket limit: 413 PayloadTooLargeException, as API Gateway answers.
    await expect(management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.alloc(128 * 1024 + 1, 0x61) }))).rejects.toMatchObject({
      name: 'PayloadTooLargeException',
      $metadata: { httpStatusCode: 413 },
    });
    // A correctly signed post still arrives, and the forged balance never did.
    await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify({ type: 'credits', current_credits: 4242 })) }));
    await tab.next(credits(4242));
    expect(balancesOf(tab)).not.toContain(999999);

    const closed = new Promise<number>((resolve) => tab.socket.once('close', (code) => resolve(code)));
    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect(await closed).toBe(1000);
    await eventually(async () => (await liveIds(user)).length === 0, 'the closed connection to be removed');
    await expect(management.send(new GetConnectionCommand({ ConnectionId: connectionId }))).rejects.toMatchObject({ name: 'GoneException' });
  });
});

describe("the WebSocket API's frame and message sizes", () => {
  const KB = 1024;
  /** A raw socket of `user` (its messages are API Gateway's answers, not realtime messages). */
  async function rawSocket(user: TestUser): Promise<{ socket: WebSocket; reply: () => Promise<string>; closed: Promise<number | 'still open'> }> {
    const socket = new WebSocket(`${twin.websocketUrl}?token=${encodeURIComponent(user.idToken)}`);
    // The close code, or 'still open' when the server has not closed it within WAIT_MS.
    const closed = new Promise<number | 'still open'>((resolve) => {
      socket.once('close', (code) => resolve(code));
      setTimeout(() => resolve('still open'), WAIT_MS).unref();
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const reply = () => new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
    return { socket, reply, closed };
  }

  it('closes the connection with 1009 on a frame over 32 KB, and on a message over 128 KB however it is framed', async () => {
    const user = await createUser(twin);
    // A 32 KB frame, and a 40 KB message sent as two 20 KB frames, are within both sizes: the API has no route for
    // messages, so API Gateway answers each as a message to an unknown route.
    const fits = await rawSocket(user);
    let answered = fits.reply();
    fits.socket.send('a'.repeat(32 * KB));
    expect(JSON.parse(await answered)).toMatchObject({ message: 'Forbidden' });
    answered = fits.reply();
    fits.socket.send('b'.repeat(20 * KB), { fin: false });
    fits.socket.send('b'.repeat(20 * KB), { fin: true });
    expect(JSON.parse(await answered)).toMatchObject({ message: 'Forbidden' });
    fits.socket.close();
    expect(await fits.closed).toBe(1005);

    // One frame of 32 KB and a byte.
    const frame = await rawSocket(user);
    frame.socket.send('c'.repeat(32 * KB + 1));
    expect(await frame.closed).toBe(1009);

    // 160 KB in frames of 32 KB: each frame fits, the message does not.
    const message = await rawSocket(user);
    for (let part = 0; part < 5; part++) message.socket.send('d'.repeat(32 * KB), { fin: part === 4 });
    expect(await message.closed).toBe(1009);
  });
});
