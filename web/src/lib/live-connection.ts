// Whether pushed lists can be trusted right now: 'open' while the realtime socket is connected, 'down' otherwise
// (connecting, reconnecting, signed out, or no websocketUrl configured). While it is open the server pushes every
// change of a live list, so nothing polls for the end of work; while it is down, the queries of running work poll.
import { useSyncExternalStore } from 'react';

export type LiveConnection = 'open' | 'down';

let current: LiveConnection = 'down';
const listeners = new Set<() => void>();

export function liveConnection(): LiveConnection {
  return current;
}

export function setLiveConnection(next: LiveConnection): void {
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The socket's state, re-rendering on each change (a query's refetchInterval is computed again on render). */
export function useLiveConnection(): LiveConnection {
  return useSyncExternalStore(subscribe, liveConnection, () => 'down');
}

/** A refetchInterval for work under way: every `ms` while the socket is down; never while the push will tell. */
export function pollWhileDown(live: LiveConnection, running: boolean, ms: number): number | false {
  return live === 'down' && running ? ms : false;
}
