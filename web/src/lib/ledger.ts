import { CreditTransaction, ListResponse } from '@contracts/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from './api';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';

const ledgerQueryKey = (userId: string) => ['credit-transactions', userId] as const;

/** The caller's newest credit transactions (the server answers the latest 10). */
export function useCreditTransactions() {
  const user = useUser();
  const query = useQuery({
    queryKey: ledgerQueryKey(user.userId),
    queryFn: async () => (await apiRequest(ListResponse(CreditTransaction), '/credit-transactions')).items,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load billing data');
  return query;
}

export function useInvalidateLedger() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ledgerQueryKey(user.userId) }), [queryClient, user.userId]);
}
