// Realtime message building, the fan-out's routing and error handling, the $connect authorizer and the connection
// item's lifetime — with fakes in place of DynamoDB, API Gateway and the JWKS.
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeMessage } from '../../lambdas/contracts/api.js';
import type { IdTokenVerifier } from '../../lambdas/core/jwt.js';
import { tableEnvName } from '../../lambdas/data/tables.js';
import { authorizeConnect } from '../../lambdas/realtime/authorizer.js';
import { CONNECTION_TTL_SECONDS, connectionItem, type LiveConnection } from '../../lambdas/data/connections-repo.js';
import { CONNECTING_GRACE_MS, fanOut, type FanOutPorts } from '../../lambdas/realtime/fan-out.js';
import { messagesByUser, noticesFor, streamedTableOf, type StreamedTable } from '../../lambdas/realtime/messages.js';
import { watchFrameSizes } from '../../lib/local/realtime.js';

const PHYSICAL: Record<StreamedTable, string> = {
  profiles: 'stack-Profiles-1',
  clothingItems: 'stack-ClothingItems-2',
  generations: 'stack-Generations-3',
  jobs: 'stack-Jobs-4',
  batches: 'stack-Batches-5',
  publications: 'stack-Publications-6',
};
const arnOf = (table: StreamedTable) => `arn:aws:dynamodb:eu-west-1:123456789012:table/${PHYSICAL[table]}/stream/2026-11-22T00:00:00.000`;

let sequence = 0;
function record(
  table: StreamedTable,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  keys: Record<string, string>,
  images: { old?: Record<string, number | string>; new?: Record<string, number | string> } = {},
): DynamoDBRecord {
  const image = (values?: Record<string, number | string>) =>
    values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === 'number' ? { N: String(value) } : { S: value }]));
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    eventSourceARN: arnOf(table),
    dynamodb: {
      Keys: image(keys),
      OldImage: image(images.old),
      NewImage: image(images.new),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}
const profileChange = (userId: string, before: number | undefined, after: number | undefined, other: Record<string, string> = {}) =>
  record('profiles', before === undefined ? 'INSERT' : after === undefined ? 'REMOVE' : 'MODIFY', { id: userId }, {
    old: before === undefined ? undefined : { id: userId, current_credits: before, ...other },
    new: after === undefined ? undefined : { id: userId, current_credits: after, ...other },
  });
const listChange = (table: Exclude<StreamedTable, 'profiles'>, userId: string, eventName: 'INSERT' | 'MODIFY' | 'REMOVE' = 'INSERT') =>
  record(table, eventName, { user_id: userId, id: `item-${sequence}` }, { new: eventName === 'REMOVE' ? undefined : { user_id: userId, id: 'x' } });

beforeEach(() => {
  for (const [table, name] of Object.entries(PHYSICAL)) vi.stubEnv(tableEnvName(table as StreamedTable), name);
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('noticesFor', () => {
  it('tells the new balance when a profile is created or its current_credits change', () => {
    expect(noticesFor('profiles', profileChange('u1', undefined, 5))).toEqual([{ userId: 'u1', message: { type: 'credits', current_credits: 5 } }]);
    expect(noticesFor('profiles', profileChange('u1', 5, 12))).toEqual([{ userId: 'u1', message: { type: 'credits', current_credits: 12 } }]);
    expect(noticesFor('profiles', profileChange('u1', 12, 0))).toEqual([{ userId: 'u1', message: { type: 'credits', current_credits: 0 } }]);
  });

  it('says nothing for a profile change that leaves the balance, or a removed profile', () => {
    const lastLoginOnly = record('profiles', 'MODIFY', { id: 'u1' }, {
      old: { id: 'u1', current_credits: 5, last_login: 'a' },
      new: { id: 'u1', current_credits: 5, last_login: 'b' },
    });
    expect(noticesFor('profiles', lastLoginOnly)).toEqual([]);
    expect(noticesFor('profiles', profileChange('u1', 5, undefined))).toEqual([]);
  });

  it('tells the owner that their data export changed when its status or id does (it lives on the profile)', () => {
    const exportOf = (id: string, status: string) => ({ M: { id: { S: id }, status: { S: status }, requested_at: { S: 't' } } });
    const change = (before: ReturnType<typeof exportOf> | undefined, after: ReturnType<typeof exportOf>) => {
      const profile = record('profiles', 'MODIFY', { id: 'u1' }, { old: { id: 'u1', current_credits: 5 }, new: { id: 'u1', current_credits: 5 } });
      if (before) profile.dynamodb!.OldImage!.data_export = before;
      profile.dynamodb!.NewImage!.data_export = after;
      return profile;
    };
    const exportChanged = [{ userId: 'u1', message: { type: 'changed', resource: 'account-export' } }];
    expect(noticesFor('profiles', change(undefined, exportOf('e1', 'building')))).toEqual(exportChanged);
    expect(noticesFor('profiles', change(exportOf('e1', 'building'), exportOf('e1', 'ready')))).toEqual(exportChanged);
    expect(noticesFor('profiles', change(exportOf('e1', 'ready'), exportOf('e2', 'ready')))).toEqual(exportChanged);
    expect(noticesFor('profiles', change(exportOf('e1', 'ready'), exportOf('e1', 'ready')))).toEqual([]);
  });

  it.each([
    ['clothingItems', 'clothing-items'],
    ['generations', 'generations'],
    ['jobs', 'jobs'],
  ] as const)('names the %s list for any change, removals included', (table, resource) => {
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE'] as const) {
      expect(noticesFor(table, listChange(table, 'u2', eventName))).toEqual([{ userId: 'u2', message: { type: 'changed', resource } }]);
    }
  });
});

describe('streamedTableOf', () => {
  it('finds the table of a stream ARN by the physical names the function is given', () => {
    for (const table of Object.keys(PHYSICAL) as StreamedTable[]) expect(streamedTableOf(arnOf(table))).toBe(table);
    expect(streamedTableOf('arn:aws:dynamodb:eu-west-1:123456789012:table/other/stream/x')).toBeUndefined();
    expect(streamedTableOf(undefined)).toBeUndefined();
  });
});

describe('messagesByUser', () => {
  it('collapses a batch into the newest balance and each changed list once, per user', () => {
    const records = [
      profileChange('a', 5, 4),
      listChange('jobs', 'a'),
      profileChange('b', 5, 9),
      listChange('jobs', 'a'),
      profileChange('a', 4, 3),
      listChange('generations', 'a'),
    ];
    const users = messagesByUser(records.map((r) => ({ table: streamedTableOf(r.eventSourceARN)!, record: r })));
    expect(users).toEqual([
      {
        userId: 'a',
        messages: [
          { type: 'credits', current_credits: 3 },
          { type: 'changed', resource: 'jobs' },
          { type: 'changed', resource: 'generations' },
        ],
        sequenceNumbers: [0, 1, 3, 4, 5].map((index) => records[index]!.dynamodb!.SequenceNumber),
      },
      { userId: 'b', messages: [{ type: 'credits', current_credits: 9 }], sequenceNumbers: [records[2]!.dynamodb!.SequenceNumber] },
    ]);
  });
});

describe('fanOut', () => {
  const old = new Date(Date.now() - 60_000);
  function fakePorts(connections: Record<string, LiveConnection[]>, answers: Record<string, 'sent' | 'gone' | Error> = {}) {
    const sent: { connectionId: string; message: RealtimeMessage }[] = [];
    const forgotten: string[] = [];
    const ports: FanOutPorts = {
      connectionsOf: async (userId) => connections[userId] ?? [],
      post: async (connectionId, message) => {
        const answer = answers[connectionId] ?? 'sent';
        if (answer instanceof Error) throw answer;
        if (answer === 'sent') sent.push({ connectionId, message });
        return answer;
      },
      forget: async (connectionId) => void forgotten.push(connectionId),
    };
    return { ports, sent, forgotten };
  }

  it("posts each user's messages to that user's connections only", async () => {
    const { ports, sent } = fakePorts({
      a: [{ connectionId: 'a1', connectedAt: old }, { connectionId: 'a2', connectedAt: old }],
      b: [{ connectionId: 'b1', connectedAt: old }],
    });
    const result = await fanOut({ Records: [profileChange('a', 5, 7), listChange('clothingItems', 'c')] }, ports);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([
      { connectionId: 'a1', message: { type: 'credits', current_credits: 7 } },
      { connectionId: 'a2', message: { type: 'credits', current_credits: 7 } },
    ]);
  });

  it('forgets a connection that answers 410, unless it may still be inside its $connect', async () => {
    const young = new Date(Date.now() - CONNECTING_GRACE_MS / 2);
    const { ports, sent, forgotten } = fakePorts(
      { a: [{ connectionId: 'stale', connectedAt: old }, { connectionId: 'connecting', connectedAt: young }, { connectionId: 'live', connectedAt: old }] },
      { stale: 'gone', connecting: 'gone' },
    );
    const result = await fanOut({ Records: [profileChange('a', 5, 6), listChange('jobs', 'a')] }, ports);
    expect(result.batchItemFailures).toEqual([]);
    expect(forgotten).toEqual(['stale']);
    expect(sent.map((s) => s.connectionId)).toEqual(['live', 'live']);
  });

  it("reports the records of a user whose delivery failed, and only those, as batch item failures", async () => {
    const failing = [profileChange('a', 5, 6), listChange('jobs', 'a')];
    const fine = profileChange('b', 5, 8);
    const { ports, sent } = fakePorts(
      { a: [{ connectionId: 'a1', connectedAt: old }], b: [{ connectionId: 'b1', connectedAt: old }] },
      { a1: new Error('Throttled') },
    );
    const result = await fanOut({ Records: [failing[0]!, fine, failing[1]!] }, ports);
    expect(result.batchItemFailures).toEqual(failing.map((r) => ({ itemIdentifier: r.dynamodb!.SequenceNumber })));
    expect(sent).toEqual([{ connectionId: 'b1', message: { type: 'credits', current_credits: 8 } }]);
  });

  it('reports the records when the connections cannot be read', async () => {
    const change = profileChange('a', 5, 6);
    const ports: FanOutPorts = {
      connectionsOf: async () => {
        throw new Error('ProvisionedThroughputExceededException');
      },
      post: async () => 'sent',
      forget: async () => undefined,
    };
    expect(await fanOut({ Records: [change] }, ports)).toEqual({ batchItemFailures: [{ itemIdentifier: change.dynamodb!.SequenceNumber }] });
  });

  it('skips records of tables it does not know', async () => {
    const { ports, sent } = fakePorts({ a: [{ connectionId: 'a1', connectedAt: old }] });
    const foreign = { ...profileChange('a', 1, 2), eventSourceARN: 'arn:aws:dynamodb:eu-west-1:1:table/other/stream/x' };
    expect(await fanOut({ Records: [foreign] }, ports)).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([]);
  });
});

describe('authorizeConnect', () => {
  const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/live/$connect';
  const event = (query: Record<string, string> | null) => ({ type: 'REQUEST', methodArn, queryStringParameters: query }) as never;
  const verifier = (outcome: { sub?: string } | Error): IdTokenVerifier => ({
    verify: vi.fn(async () => {
      if (outcome instanceof Error) throw outcome;
      return outcome as never;
    }),
  });

  it('allows this connect for the verified user, with the user id as context', async () => {
    const check = verifier({ sub: 'user-1' });
    const result = await authorizeConnect(event({ token: 'id-token' }), check);
    expect(check.verify).toHaveBeenCalledWith('id-token');
    expect(result).toEqual({
      principalId: 'user-1',
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: methodArn }] },
      context: { userId: 'user-1' },
    });
  });

  it('answers Unauthorized (401) without a token, or for a token that fails verification, and never logs it', async () => {
    // Powertools writes through its own Console on the process's streams (the global console in POWERTOOLS_DEV mode):
    // capture all of them, as an operator's log would.
    const written: string[] = [];
    const capture = (chunk: unknown) => Boolean(written.push(String(chunk)));
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args) => void capture(args.join(' ')));
    await expect(authorizeConnect(event(null), verifier({ sub: 'x' }))).rejects.toThrow(/^Unauthorized$/);
    await expect(authorizeConnect(event({}), verifier({ sub: 'x' }))).rejects.toThrow(/^Unauthorized$/);
    await expect(authorizeConnect(event({ token: 'secret-token-value' }), verifier(new Error('Invalid signature')))).rejects.toThrow(/^Unauthorized$/);
    await expect(authorizeConnect(event({ token: 'secret-token-value' }), verifier({}))).rejects.toThrow(/^Unauthorized$/);
    vi.restoreAllMocks();
    const refusals = written.filter((line) => line.includes('websocket connect refused'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain('"reason":"Error"');
    expect(written.join('\n')).not.toContain('secret-token-value');
  });
});

describe('connectionItem', () => {
  it('expires a few minutes after the 2-hour connection limit', () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    const item = connectionItem('c1', 'u1', now);
    expect(item).toEqual({ connection_id: 'c1', user_id: 'u1', connected_at: now.toISOString(), expires_at: now.getTime() / 1000 + CONNECTION_TTL_SECONDS });
    expect(CONNECTION_TTL_SECONDS).toBeGreaterThan(2 * 60 * 60);
    expect(CONNECTION_TTL_SECONDS).toBeLessThanOrEqual(2 * 60 * 60 + 15 * 60);
  });
});

describe('watchFrameSizes (the twin’s WebSocket frame limit)', () => {
  /** A masked client frame of `size` payload bytes, as a browser sends it. */
  const frame = (size: number, fin = true) => {
    const length = size < 126 ? Buffer.from([size]) : size < 65_536 ? Buffer.from([126, size >> 8, size & 0xff]) : Buffer.concat([Buffer.from([127]), Buffer.alloc(8)]);
    if (size >= 65_536) length.writeBigUInt64BE(BigInt(size), 1);
    length[0] = length[0]! | 0x80;
    return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | 0x1]), length, Buffer.alloc(4, 7), Buffer.alloc(size, 0x61)]);
  };
  const watch = (limit: number) => {
    const seen: number[] = [];
    return { seen, listener: watchFrameSizes(limit, () => seen.push(1)) };
  };

  it('lets frames up to the limit through, in one chunk or split anywhere, and calls once past it', () => {
    const stream = Buffer.concat([frame(10), frame(300, false), frame(32 * 1024), frame(70_000), frame(5)]);
    for (const split of [stream.length, 1, 3, 7, 1000]) {
      const { seen, listener } = watch(32 * 1024);
      for (let at = 0; at < stream.length; at += split) listener(stream.subarray(at, at + split));
      expect(seen, `split into ${split}-byte chunks`).toEqual([1]);
    }
    const { seen, listener } = watch(32 * 1024);
    listener(Buffer.concat([frame(32 * 1024), frame(125), frame(126), frame(65_535)]));
    expect(seen).toEqual([1]);
    const exact = watch(32 * 1024);
    exact.listener(Buffer.concat([frame(32 * 1024), frame(125), frame(126)]));
    expect(exact.seen).toEqual([]);
  });
});
