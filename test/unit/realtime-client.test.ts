// The web app's realtime socket (web/src/lib/realtime.ts) against a fake WebSocket and fake timers: the token in the
// query string, messages checked against the contract, reconnects with growing, jittered delays, a fresh token for
// each attempt, and a clean stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The web code imports the shared contracts through its own path alias, and is type-checked with the web's
// tsconfig (DOM), so it is loaded here by a path the Node type check does not follow.
vi.mock('@contracts/api', async () => import('../../lambdas/contracts/api.js'));
interface RealtimeModule {
  backoffDelay(attempt: number, random?: () => number): number;
  connectRealtime(options: {
    url: string;
    token: () => Promise<string | null>;
    onMessage: (message: unknown) => void;
    onStatus: (status: string) => void;
  }): { close(): void };
}
const webModule = '../../web/src/lib/realtime.ts';
const { backoffDelay, connectRealtime } = (await import(/* @vite-ignore */ webModule)) as RealtimeModule;

class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  closedWith?: number;
  onopen?: () => void;
  onmessage?: (event: { data: string }) => void;
  onclose?: () => void;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
    this.drop();
  }
  // Test controls: the server side.
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  push(data: string) {
    this.onmessage?.({ data });
  }
  drop() {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.();
  }
}

const listeners = new Map<string, () => void>();
beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  listeners.clear();
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('window', {
    addEventListener: (name: string, listener: () => void) => listeners.set(name, listener),
    removeEventListener: (name: string) => listeners.delete(name),
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('backoffDelay', () => {
  it('grows exponentially to a cap, with full jitter', () => {
    expect([0, 1, 2, 3, 10].map((attempt) => backoffDelay(attempt, () => 0.999999))).toEqual([499, 999, 1999, 3999, 29999]);
    expect(backoffDelay(4, () => 0)).toBe(0);
    expect(backoffDelay(4, () => 0.5)).toBe(4000);
  });
});

describe('connectRealtime', () => {
  function start(tokens: (string | null)[] = ['token-1', 'token-2', 'token-3', 'token-4']) {
    const statuses: string[] = [];
    const messages: unknown[] = [];
    const token = vi.fn(async () => (tokens.length ? tokens.shift()! : 'token-n'));
    const connection = connectRealtime({
      url: 'wss://example.test/live',
      token,
      onMessage: (message) => messages.push(message),
      onStatus: (status) => statuses.push(status),
    });
    return { connection, statuses, messages, token };
  }

  it('connects with the ID token as the token query parameter and hands on contract messages only', async () => {
    const { statuses, messages } = start(['a.b/c+d']);
    await flush();
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe('wss://example.test/live?token=a.b%2Fc%2Bd');
    socket.accept();
    socket.push('{"type":"credits","current_credits":42}');
    socket.push('{"type":"changed","resource":"jobs"}');
    socket.push('{"message":"Forbidden","connectionId":"x"}');
    socket.push('not json');
    expect(messages).toEqual([
      { type: 'credits', current_credits: 42 },
      { type: 'changed', resource: 'jobs' },
    ]);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('reconnects after a drop with a fresh token and a growing, jittered delay', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    const { token, statuses } = start();
    await flush();
    FakeSocket.all[0]!.drop(); // refused at connect: never opened
    expect(statuses.at(-1)).toBe('closed');
    await vi.advanceTimersByTimeAsync(498);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.drop();
    await vi.advanceTimersByTimeAsync(998);
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(3);
    expect(FakeSocket.all.map((socket) => new URL(socket.url).searchParams.get('token'))).toEqual(['token-1', 'token-2', 'token-3']);
    expect(token).toHaveBeenCalledTimes(3);
  });

  it('starts again from the shortest delay after a connection that stayed up, and at once when back online', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    start();
    await flush();
    FakeSocket.all[0]!.drop();
    await vi.advanceTimersByTimeAsync(499);
    FakeSocket.all[1]!.accept();
    await vi.advanceTimersByTimeAsync(60_000);
    FakeSocket.all[1]!.drop();
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.all).toHaveLength(3);

    FakeSocket.all[2]!.drop();
    listeners.get('online')!();
    await flush();
    expect(FakeSocket.all).toHaveLength(4);
  });

  it('waits and retries while there is no token (signed out elsewhere), without opening a socket', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { statuses } = start([null, 'token-after-sign-in']);
    await flush();
    expect(FakeSocket.all).toHaveLength(0);
    expect(statuses).toEqual(['connecting', 'closed']);
    await vi.advanceTimersByTimeAsync(250);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('sends a heartbeat every five minutes while open', async () => {
    start();
    await flush();
    FakeSocket.all[0]!.accept();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(FakeSocket.all[0]!.sent).toHaveLength(2);
  });

  it('stops for good when closed: no reconnect, no listener left', async () => {
    const { connection } = start();
    await flush();
    FakeSocket.all[0]!.accept();
    connection.close();
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(listeners.size).toBe(0);
  });
});
