import { getProfileRoute } from '@contracts/api';
import { Profile } from '@contracts/api';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callRoute } from './api';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';

/** How often the balance is re-read while no realtime channel pushes it. */
const PROFILE_POLL_MS = 30_000;

export const profileQueryKey = (userId: string) => ['profile', userId] as const;

/** The caller's profile (balance, plan, dates); shared by the dashboard, the account menu, settings and billing. */
export const profileQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: profileQueryKey(userId),
    queryFn: () => callRoute(getProfileRoute),
    refetchInterval: PROFILE_POLL_MS,
  });

export function useProfile() {
  const user = useUser();
  const query = useQuery(profileQueryOptions(user.userId));
  useLoadErrorToast(query.error, 'Error', 'Failed to load profile data');
  return query;
}

/** Everything that shows the balance re-reads it, e.g. after a purchase. */
export function useSetBalance() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useCallback(
    (credits: number) => {
      queryClient.setQueryData<Profile>(profileQueryKey(user.userId), (profile) =>
        profile ? { ...profile, current_credits: credits } : profile,
      );
      void queryClient.invalidateQueries({ queryKey: profileQueryKey(user.userId) });
    },
    [queryClient, user.userId],
  );
}
