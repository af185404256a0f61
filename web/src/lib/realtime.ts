// One WebSocket per tab to the realtime API: the Cognito ID token goes in the `token` query parameter (browsers can't
// set headers on a WebSocket), a lost connection is reopened with exponential backoff and full jitter, and a small
// heartbeat keeps API Gateway's 10-minute idle timeout from closing a quiet connection. The token is never logged.
import { RealtimeMessage, WEBSOCKET_TOKEN_PARAM } from '@contracts/api';

export type RealtimeStatus = 'connecting' | 'open' | 'closed';

export interface RealtimeOptions {
  /** config.json `websocketUrl`. */
  url: string;
  /** The current ID token (renewed by Amplify when it has expired); null when signed out. */
  token: () => Promise<string | null>;
  onMessage: (message: RealtimeMessage) => void;
  onStatus: (status: RealtimeStatus) => void;
}

export interface RealtimeConnection {
  close(): void;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** A connection that stayed open this long was healthy: the next reconnect starts from the shortest delay again. */
const STABLE_CONNECTION_MS = 10_000;
/** Any client frame resets API Gateway's idle timer (10 minutes); unrouted, it is answered and otherwise ignored. */
const HEARTBEAT_MS = 5 * 60_000;

/** Full jitter: a random delay up to the exponentially growing cap, so that many tabs don't reconnect in step. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

export function connectRealtime(options: RealtimeOptions): RealtimeConnection {
  let socket: WebSocket | undefined;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const scheduleRetry = () => {
    if (stopped) return;
    options.onStatus('closed');
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void open(), backoffDelay(attempt++));
  };

  async function open(): Promise<void> {
    if (stopped) return;
    options.onStatus('connecting');
    const token = await options.token().catch(() => null);
    if (stopped) return;
    if (!token) return scheduleRetry();

    const ws = new WebSocket(`${options.url}?${WEBSOCKET_TOKEN_PARAM}=${encodeURIComponent(token)}`);
    socket = ws;
    let openedAt: number | undefined;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    ws.onopen = () => {
      openedAt = Date.now();
      heartbeat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"action":"ping"}'), HEARTBEAT_MS);
      options.onStatus('open');
    };
    ws.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = RealtimeMessage.safeParse(data);
      if (parsed.success) options.onMessage(parsed.data);
    };
    ws.onclose = () => {
      clearInterval(heartbeat);
      if (socket !== ws) return;
      socket = undefined;
      if (openedAt !== undefined && Date.now() - openedAt >= STABLE_CONNECTION_MS) attempt = 0;
      scheduleRetry();
    };
  }

  // Back online: don't wait out the backoff.
  const reconnectNow = () => {
    if (stopped || socket) return;
    clearTimeout(retryTimer);
    attempt = 0;
    void open();
  };
  window.addEventListener('online', reconnectNow);
  void open();

  return {
    close() {
      stopped = true;
      clearTimeout(retryTimer);
      window.removeEventListener('online', reconnectNow);
      const ws = socket;
      socket = undefined;
      ws?.close(1000);
    },
  };
}
