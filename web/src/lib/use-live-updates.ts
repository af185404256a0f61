// Live server state for the signed-in user: the realtime socket writes a pushed balance straight into the profile
// query and reloads the list that changed; while the socket is down, the same queries are polled instead.
// Convention: every query of a live list starts with its LiveResource name ('clothing-items', 'generations', 'jobs',
// 'batches').
import { LIVE_RESOURCES, type LiveResource, type Profile, type RealtimeMessage, type RuntimeConfig } from '@contracts/api';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { idToken } from './auth';
import { ledgerQueryKey } from './ledger';
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
    let wasDisconnected = false;
    const connection = connectRealtime({
      url,
      token: () => idToken(),
      onMessage: apply,
      onStatus: (status) => {
        if (status === 'open') {
          clearInterval(poll);
          poll = undefined;
          // Whatever changed while the socket was down was not pushed: read it once.
          if (wasDisconnected) refreshLiveQueries();
        } else if (status === 'closed') {
          wasDisconnected = true;
          poll ??= setInterval(refreshLiveQueries, POLL_WHILE_DISCONNECTED_MS);
        }
      },
    });
    return () => {
      connection.close();
      clearInterval(poll);
    };
  }, [queryClient, url, userId]);
}
