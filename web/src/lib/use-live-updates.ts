// Live server state for the signed-in user: the realtime socket writes a pushed balance straight into the profile
// query and reloads the list that changed. Its state ('open' or 'down', live-connection.ts) decides who polls: while
// the socket is down (also before it first opens, or when no websocketUrl is configured), the live queries are
// polled instead; while it is open, nothing polls.
// Convention: every query of a live list starts with its LiveResource name ('clothing-items', 'generations', 'jobs',
// 'batches').
import { LIVE_RESOURCES, type LiveResource, type Profile, type RealtimeMessage, type RuntimeConfig } from '@contracts/api';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { idToken } from './auth';
import { ledgerQueryKey } from './ledger';
import { setLiveConnection } from './live-connection';
import { profileQueryKey } from './profile';
import { connectRealtime } from './realtime';

/** Lists computed from another list: a batch's progress is read from its photos' generation rows. */
const ALSO_CHANGED: Partial<Record<LiveResource, LiveResource[]>> = { generations: ['batches'] };

/** How often the live queries are read again while there is no socket. */
const POLL_WHILE_DISCONNECTED_MS = 10_000;

export function useLiveUpdates(queryClient: QueryClient, config: RuntimeConfig, userId: string | undefined): void {
  const url = config.websocketUrl;
  useEffect(() => {
    if (!userId || !url) return;
    const refreshLiveQueries = () => {
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(userId) });
      for (const resource of LIVE_RESOURCES) void queryClient.invalidateQueries({ queryKey: [resource] });
    };
    const apply = (message: RealtimeMessage) => {
      if (message.type === 'credits') {
        queryClient.setQueryData<Profile>(profileQueryKey(userId), (profile) =>
          profile ? { ...profile, current_credits: message.current_credits } : profile,
        );
        // A moved balance is a new ledger entry: Usage's list and totals read it again.
        void queryClient.invalidateQueries({ queryKey: ledgerQueryKey(userId) });
      } else {
        for (const resource of [message.resource, ...(ALSO_CHANGED[message.resource] ?? [])]) {
          void queryClient.invalidateQueries({ queryKey: [resource] });
        }
      }
    };

    let poll: ReturnType<typeof setInterval> | undefined;
    const connection = connectRealtime({
      url,
      token: () => idToken(),
      onMessage: apply,
      onStatus: (status) => {
        setLiveConnection(status === 'open' ? 'open' : 'down');
        if (status === 'open') {
          clearInterval(poll);
          poll = undefined;
          // Whatever changed before the socket opened (or while it was down) was not pushed to it: read it once.
          refreshLiveQueries();
        } else if (status === 'closed') {
          poll ??= setInterval(refreshLiveQueries, POLL_WHILE_DISCONNECTED_MS);
        }
      },
    });
    return () => {
      connection.close();
      clearInterval(poll);
      setLiveConnection('down');
    };
  }, [queryClient, url, userId]);
}
